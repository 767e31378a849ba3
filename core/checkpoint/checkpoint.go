// Package checkpoint snapshots a workspace folder before each prompt and
// restores it: content-addressed (an unchanged file is stored once, shared
// by every checkpoint), kept in the workspace's hidden .cdxtheme folder.
//
// The agent writes into the same folder, so everything here treats the
// folder as hostile: every path goes through an os.Root (no symlink can
// lead a read or a write outside the workspace), symlinks, FIFOs and
// devices are never snapshotted, files and snapshots are size-capped, and
// stored objects are verified against their hash before a restore.
package checkpoint

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/inside"
	"cdxtheme/core/paths"
)

// Limits of one snapshot.
const (
	MaxFileSize = 8 << 20  // a bigger file is left out (and listed as skipped)
	MaxTotal    = 64 << 20 // files beyond this total are left out
	MaxFiles    = 5000
	MaxDepth    = 32
	// Keep is how many checkpoints a workspace keeps; older ones are
	// dropped with the objects only they used, once pruneSlack more have
	// piled up (pruning reads every manifest; not on every turn).
	Keep       = 100
	pruneSlack = 10
)

// Dir is the store inside the workspace.
const Dir = ".cdxtheme/checkpoints"

// excluded are never snapshotted nor touched by a restore: the store
// itself, the workspace metadata (title, sessions: a restore must not
// forget them) and a VCS folder, which keeps its own history.
var excluded = map[string]bool{".cdxtheme": true, ".cdxtheme.json": true, ".git": true}

// Kinds of checkpoint.
const (
	KindTurn    = "turn"    // taken before a prompt
	KindRestore = "restore" // taken before a restore, to undo it
	KindEdit    = "edit"    // taken before a hand edit of the theme
)

// File is one snapshotted file.
type File struct {
	Path string      `json:"path"` // slash-separated, relative to the workspace
	Hash string      `json:"hash"` // sha256 of the content, hex
	Size int64       `json:"size"`
	Mode fs.FileMode `json:"mode"` // permission bits
}

// Skipped is something in the folder a snapshot left out, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Checkpoint is one snapshot of a workspace.
type Checkpoint struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	TurnID  string    `json:"turnId,omitempty"`
	Label   string    `json:"label"`
	Created time.Time `json:"created" ts_type:"string"`
	// RestoredTo is, for a KindRestore checkpoint, the checkpoint the
	// restore went back to.
	RestoredTo string    `json:"restoredTo,omitempty"`
	Files      []File    `json:"files"`
	Skipped    []Skipped `json:"skipped,omitempty"`
	Size       int64     `json:"size"`
}

// Summary is a checkpoint without its file list, for the UI.
type Summary struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"`
	TurnID     string    `json:"turnId,omitempty"`
	Label      string    `json:"label"`
	Created    time.Time `json:"created" ts_type:"string"`
	RestoredTo string    `json:"restoredTo,omitempty"`
	Files      int       `json:"files"`
	Skipped    int       `json:"skipped"`
	Size       int64     `json:"size"`
}

// Summary drops the file list.
func (c Checkpoint) Summary() Summary {
	return Summary{ID: c.ID, Kind: c.Kind, TurnID: c.TurnID, Label: c.Label, Created: c.Created,
		RestoredTo: c.RestoredTo, Files: len(c.Files), Skipped: len(c.Skipped), Size: c.Size}
}

// Info describes a checkpoint to take.
type Info struct {
	Kind, TurnID, Label, RestoredTo string
}

var idPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}-[0-9a-f]{6}$`)

// ValidID reports whether id has the checkpoint id form (sortable by time).
func ValidID(id string) bool { return idPattern.MatchString(id) }

func newID(t time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return t.UTC().Format("20060102T150405.000000000") + "-" + hex.EncodeToString(b[:])
}

// locks serialises Take and Restore per workspace within the process.
var locks sync.Map // workspace dir → *sync.Mutex

func lock(dir string) func() {
	m, _ := locks.LoadOrStore(dir, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// store is the checkpoint store of one workspace, opened through its root.
type store struct {
	root *os.Root
}

func open(dir string) (*store, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	return &store{root: r}, nil
}

func (s *store) close() { s.root.Close() }

// ensure creates the store's folders; a symlink or file in their place
// (the agent can write there) is refused rather than followed.
func (s *store) ensure() error {
	for _, d := range []string{".cdxtheme", Dir, Dir + "/objects"} {
		st, err := s.root.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := s.root.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("checkpoint: create %s: %w", d, err)
			}
		case err != nil:
			return fmt.Errorf("checkpoint: %w", err)
		case !st.IsDir():
			return fmt.Errorf("checkpoint: %s is not a folder (%s); not using it", d, st.Mode().Type())
		}
	}
	return nil
}

func objectPath(hash string) string { return Dir + "/objects/" + hash }

var hashPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// readRegular opens name inside the root without blocking on a FIFO and
// reads at most limit bytes of a regular file.
func (s *store) readRegular(name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := openFile(s.root, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, st, fmt.Errorf("%s is not a regular file", name)
	}
	if st.Size() > limit {
		return nil, st, fmt.Errorf("%s is larger than %d bytes", name, limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, st, err
	}
	if int64(len(b)) > limit {
		return nil, st, fmt.Errorf("%s grew past %d bytes while being read", name, limit)
	}
	return b, st, nil
}

// writeAtomic writes data to name inside the root: a new temporary file
// beside it, then a rename over it. A rename replaces a symlink at name
// itself, never what it points to.
func (s *store) writeAtomic(name string, data []byte, perm fs.FileMode) error {
	if d := path.Dir(name); d != "." {
		if err := s.root.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := path.Join(path.Dir(name), ".cdx-tmp-"+hex.EncodeToString(rnd[:]))
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.root.Chmod(tmp, perm)
	}
	if err == nil {
		err = s.root.Rename(tmp, name)
	}
	if err != nil {
		s.root.Remove(tmp)
	}
	return err
}

// Take snapshots the workspace at dir. Regular files are stored by hash
// (once); symlinks, FIFOs, devices, oversized files and whatever exceeds
// the total are listed as skipped, never read.
func Take(dir string, info Info) (Checkpoint, error) {
	defer lock(dir)()
	return take(dir, info)
}

func take(dir string, info Info) (Checkpoint, error) {
	s, err := open(dir)
	if err != nil {
		return Checkpoint{}, err
	}
	defer s.close()
	if err := s.ensure(); err != nil {
		return Checkpoint{}, err
	}
	now := time.Now()
	c := Checkpoint{ID: newID(now), Kind: info.Kind, TurnID: info.TurnID, Label: info.Label, Created: now.UTC(),
		RestoredTo: info.RestoredTo, Files: []File{}}
	if c.Kind == "" {
		c.Kind = KindTurn
	}
	skip := func(p, why string) {
		if len(c.Skipped) < 200 {
			c.Skipped = append(c.Skipped, Skipped{Path: p, Reason: why})
		}
	}
	var walk func(rel string, depth int) error
	walk = func(rel string, depth int) error {
		f, err := openDir(s.root, rel)
		if err != nil {
			skip(rel, "unreadable folder")
			return nil
		}
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			skip(rel, "unreadable folder")
			return nil
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			p := e.Name()
			if rel != "." {
				p = rel + "/" + e.Name()
			}
			if rel == "." && excluded[e.Name()] {
				continue
			}
			if strings.HasPrefix(e.Name(), ".cdx-tmp-") || paths.IsTemp(e.Name()) {
				continue // a restore's or an atomic write's temporary file (a crash leaves them)
			}
			switch t := e.Type(); {
			case t.IsDir():
				if depth >= MaxDepth {
					skip(p, "folder nested too deeply")
					continue
				}
				if err := walk(p, depth+1); err != nil {
					return err
				}
			case t&fs.ModeSymlink != 0:
				skip(p, "symlink")
			case !t.IsRegular():
				skip(p, "not a regular file ("+t.String()+")")
			default:
				if len(c.Files) >= MaxFiles {
					skip(p, fmt.Sprintf("more than %d files", MaxFiles))
					continue
				}
				data, st, err := s.readRegular(p, MaxFileSize)
				if err != nil {
					reason := "unreadable"
					if st != nil && st.Size() > MaxFileSize {
						reason = fmt.Sprintf("larger than %d MB", MaxFileSize>>20)
					} else if st != nil && !st.Mode().IsRegular() {
						reason = "not a regular file"
					}
					skip(p, reason)
					continue
				}
				if c.Size+int64(len(data)) > MaxTotal {
					skip(p, fmt.Sprintf("the snapshot would pass %d MB", MaxTotal>>20))
					continue
				}
				sum := sha256.Sum256(data)
				h := hex.EncodeToString(sum[:])
				if err := s.putObject(h, data); err != nil {
					return fmt.Errorf("checkpoint: store %s: %w", p, err)
				}
				c.Files = append(c.Files, File{Path: p, Hash: h, Size: int64(len(data)), Mode: st.Mode().Perm()})
				c.Size += int64(len(data))
			}
		}
		return nil
	}
	if err := walk(".", 0); err != nil {
		return Checkpoint{}, err
	}
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return Checkpoint{}, err
	}
	if err := s.writeAtomic(Dir+"/"+c.ID+".json", b, 0o600); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint: save %s: %w", c.ID, err)
	}
	s.prune()
	return c, nil
}

// putObject stores content under its hash unless a copy of the same size
// is there (objects are verified when read, so a damaged one is caught by
// the restore that needs it, before anything is written).
func (s *store) putObject(h string, data []byte) error {
	if st, err := s.root.Lstat(objectPath(h)); err == nil && st.Mode().IsRegular() && st.Size() == int64(len(data)) {
		return nil
	}
	return s.writeAtomic(objectPath(h), data, 0o600)
}

// object reads a stored object and checks it is what its name says.
func (s *store) object(h string) ([]byte, error) {
	if !hashPattern.MatchString(h) {
		return nil, fmt.Errorf("checkpoint: %q is not an object hash", h)
	}
	b, _, err := s.readRegular(objectPath(h), MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: object %s: %w", h[:12], err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != h {
		return nil, fmt.Errorf("checkpoint: object %s is damaged (its content does not match its hash)", h[:12])
	}
	return b, nil
}

// maxManifest bounds a manifest read (5000 files of ~150 bytes each).
const maxManifest = 4 << 20

// manifest reads and validates one checkpoint's manifest.
func (s *store) manifest(id string) (Checkpoint, error) {
	if !ValidID(id) {
		return Checkpoint{}, fmt.Errorf("checkpoint: %q is not a checkpoint id", id)
	}
	b, _, err := s.readRegular(Dir+"/"+id+".json", maxManifest)
	if errors.Is(err, fs.ErrNotExist) {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: no such checkpoint", id)
	}
	if err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: %w", id, err)
	}
	var c Checkpoint
	if err := json.Unmarshal(b, &c); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: damaged manifest: %w", id, err)
	}
	if c.ID != id {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: the manifest says id %q", id, c.ID)
	}
	for _, f := range c.Files {
		if !safePath(f.Path) || !hashPattern.MatchString(f.Hash) {
			return Checkpoint{}, fmt.Errorf("checkpoint %s: damaged manifest (entry %q)", id, f.Path)
		}
	}
	return c, nil
}

// safePath: a clean relative path inside the workspace, outside the parts
// a restore never touches.
func safePath(p string) bool {
	if !inside.Local(p) {
		return false
	}
	first, _, _ := strings.Cut(p, "/")
	return !excluded[first] && !strings.ContainsRune(p, '\\') && !strings.ContainsRune(p, 0)
}

// ids lists the stored checkpoint ids, oldest first.
func (s *store) ids() []string {
	f, err := openDir(s.root, Dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	var out []string
	for _, n := range names {
		if id, ok := strings.CutSuffix(n, ".json"); ok && ValidID(id) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// prune drops the oldest checkpoints beyond Keep, then every object no
// remaining checkpoint uses.
func (s *store) prune() {
	ids := s.ids()
	if len(ids) <= Keep+pruneSlack {
		return
	}
	for _, id := range ids[:len(ids)-Keep] {
		s.root.Remove(Dir + "/" + id + ".json")
	}
	used := map[string]bool{}
	for _, id := range ids[len(ids)-Keep:] {
		c, err := s.manifest(id)
		if err != nil {
			return // unsure what is used: keep every object
		}
		for _, f := range c.Files {
			used[f.Hash] = true
		}
	}
	d, err := openDir(s.root, Dir+"/objects")
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		if hashPattern.MatchString(n) && !used[n] {
			s.root.Remove(Dir + "/objects/" + n)
		}
	}
}

// List returns a workspace's checkpoints, oldest first; damaged manifests
// are left out.
func List(dir string) ([]Summary, error) {
	s, err := open(dir)
	if err != nil {
		return nil, err
	}
	defer s.close()
	out := []Summary{}
	for _, id := range s.ids() {
		if c, err := s.manifest(id); err == nil {
			out = append(out, c.Summary())
		}
	}
	return out, nil
}

// Get returns one checkpoint with its file list.
func Get(dir, id string) (Checkpoint, error) {
	s, err := open(dir)
	if err != nil {
		return Checkpoint{}, err
	}
	defer s.close()
	return s.manifest(id)
}

// ReadFile returns a file as it was in a checkpoint; fs.ErrNotExist when
// the checkpoint did not have it.
func ReadFile(dir, id, name string) ([]byte, error) {
	s, err := open(dir)
	if err != nil {
		return nil, err
	}
	defer s.close()
	c, err := s.manifest(id)
	if err != nil {
		return nil, err
	}
	for _, f := range c.Files {
		if f.Path == name {
			return s.object(f.Hash)
		}
	}
	return nil, fmt.Errorf("checkpoint %s: %s: %w", id, name, fs.ErrNotExist)
}

// Restore puts the workspace back as it was at checkpoint id: files it
// had are written back, files added since are removed (symlinks, FIFOs
// and other things a snapshot never holds are left alone). It first takes
// a KindRestore checkpoint of the current state and returns it, so the
// restore can itself be undone by restoring that one.
func Restore(dir, id string) (Checkpoint, error) {
	defer lock(dir)()
	s, err := open(dir)
	if err != nil {
		return Checkpoint{}, err
	}
	defer s.close()
	target, err := s.manifest(id)
	if err != nil {
		return Checkpoint{}, err
	}
	// Every object must be intact before anything is touched.
	contents := make(map[string][]byte, len(target.Files))
	for _, f := range target.Files {
		b, err := s.object(f.Hash)
		if err != nil {
			return Checkpoint{}, fmt.Errorf("restore %s: %s: %w", id, f.Path, err)
		}
		contents[f.Path] = b
	}
	undo, err := take(dir, Info{Kind: KindRestore, Label: target.Label, RestoredTo: id})
	if err != nil {
		return Checkpoint{}, fmt.Errorf("restore %s: save the current state first: %w", id, err)
	}
	var problems []string
	current := make(map[string]string, len(undo.Files))
	for _, f := range undo.Files {
		current[f.Path] = f.Hash
	}
	keep := map[string]bool{}
	for _, f := range target.Files {
		keep[f.Path] = true
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			keep[d] = true
		}
		if current[f.Path] == f.Hash {
			continue
		}
		perm := f.Mode.Perm()
		if perm == 0 {
			perm = 0o600
		}
		if err := s.writeAtomic(f.Path, contents[f.Path], perm); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", f.Path, err))
		}
	}
	dirs := map[string]bool{}
	for _, f := range undo.Files {
		if keep[f.Path] {
			continue
		}
		if err := s.root.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, fmt.Sprintf("remove %s: %v", f.Path, err))
		}
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			if !keep[d] {
				dirs[d] = true
			}
		}
	}
	// Folders the removed files leave empty go too, deepest first; a
	// folder with anything else in it stays (Remove fails on it).
	var ds []string
	for d := range dirs {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return strings.Count(ds[i], "/") > strings.Count(ds[j], "/") })
	for _, d := range ds {
		s.root.Remove(d)
	}
	if len(problems) > 0 {
		return undo, fmt.Errorf("restore %s: %d files could not be restored (undo with checkpoint %s): %s", id, len(problems), undo.ID, strings.Join(problems, "; "))
	}
	return undo, nil
}
