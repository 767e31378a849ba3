package prompt

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"cdxtheme/core/acp"
	"cdxtheme/core/fswrite"
)

// Size limits of attachments. They travel inline (base64) in one JSON-RPC
// line that the agent must hold in memory, and models refuse huge images.
const (
	MaxAttachmentBytes = 10 << 20 // one attachment
	MaxAttachmentTotal = 25 << 20 // all attachments of one message
)

// AttachDir is the workspace folder where files go that the agent can only
// be pointed at (no embedded context): it reads them there.
const AttachDir = "attachments"

// Attachment is a file or image the user added to a message: pasted or
// dropped content (Data), or a file already inside the workspace (Path).
type Attachment struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType,omitempty"`
	Data     []byte `json:"data,omitempty" ts_type:"string"`
	Path     string `json:"path,omitempty"`
}

// CheckAttachments refuses attachments that are empty, unnamed or too big,
// saying which and why. It needs no agent: callers run it before starting a turn.
func CheckAttachments(atts []Attachment) error {
	total := 0
	for _, a := range atts {
		name := a.Name
		if name == "" {
			name = filepath.Base(a.Path)
		}
		switch {
		case name == "" || name == "." || name == string(filepath.Separator):
			return fmt.Errorf("an attachment has no name")
		case a.Path == "" && len(a.Data) == 0:
			return fmt.Errorf("attachment %s is empty", name)
		case len(a.Data) > MaxAttachmentBytes:
			return fmt.Errorf("attachment %s is %s; one attachment may be at most %s, because it is sent inside the message itself. Save it into the workspace folder and mention it instead",
				name, humanBytes(int64(len(a.Data))), humanBytes(MaxAttachmentBytes))
		}
		total += len(a.Data)
	}
	if total > MaxAttachmentTotal {
		return fmt.Errorf("the attachments add up to %s; one message may carry at most %s. Send them in several messages",
			humanBytes(int64(total)), humanBytes(MaxAttachmentTotal))
	}
	return nil
}

// AttachmentBlocks turns attachments into content blocks the agent can
// take, by its promptCapabilities: images and audio inline when allowed
// (refused otherwise), other files embedded as resources when allowed,
// else saved into the workspace's attachments folder and linked.
func AttachmentBlocks(atts []Attachment, caps acp.PromptCapabilities, cwd string) ([]acp.ContentBlock, error) {
	if err := CheckAttachments(atts); err != nil {
		return nil, err
	}
	var out []acp.ContentBlock
	for _, a := range atts {
		if a.Path != "" {
			b, err := FileLink(cwd, a.Path)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
			continue
		}
		mt := a.MimeType
		if mt == "" {
			mt = mime.TypeByExtension(filepath.Ext(a.Name))
		}
		switch {
		case strings.HasPrefix(mt, "image/"):
			if !caps.Image {
				return nil, fmt.Errorf("the agent does not accept images, so %s was not sent", a.Name)
			}
			out = append(out, ImageBlock(a.Data, mt))
		case strings.HasPrefix(mt, "audio/"):
			if !caps.Audio {
				return nil, fmt.Errorf("the agent does not accept audio, so %s was not sent", a.Name)
			}
			out = append(out, AudioBlock(a.Data, mt))
		case caps.EmbeddedContext:
			out = append(out, embedded(a, mt))
		default:
			p, err := saveAttachment(cwd, a)
			if err != nil {
				return nil, err
			}
			b, err := FileLink(cwd, p)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// embedded is a resource block: text when the data is UTF-8 text, else a blob.
func embedded(a Attachment, mt string) acp.ContentBlock {
	uri := (&url.URL{Scheme: "attachment", Path: "/" + a.Name}).String()
	if utf8.Valid(a.Data) && !strings.ContainsRune(string(a.Data), 0) {
		if mt == "" {
			mt = "text/plain"
		}
		return ResourceBlock(uri, mt, string(a.Data))
	}
	blob := base64.StdEncoding.EncodeToString(a.Data)
	return acp.ContentBlock{Type: acp.BlockResource, Resource: &acp.ResourceContents{URI: uri, MimeType: mt, Blob: &blob}}
}

// saveAttachment writes a into cwd/attachments under a free name (never
// over an existing file) and returns its path. The agent owns cwd: an
// attachments folder it replaced with a symlink is refused, not followed.
func saveAttachment(cwd string, a Attachment) (string, error) {
	base := filepath.Base(filepath.Clean("/" + a.Name)) // no directories from the name
	if base == "/" || base == "." {
		base = "attachment"
	}
	dir, err := fswrite.Open(cwd, AttachDir)
	if err != nil {
		return "", fmt.Errorf("save attachment %s: %w", a.Name, err)
	}
	defer dir.Close()
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	name := base
	for i := 2; ; i++ {
		// A name is taken only if nothing (not even a symlink) is there.
		p, err := dir.CreateNew(name, a.Data, 0o644)
		if errors.Is(err, fs.ErrExist) && i < 1000 {
			name = fmt.Sprintf("%s-%d%s", stem, i, ext)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("save attachment %s: %w", a.Name, err)
		}
		return filepath.FromSlash(p), nil
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
