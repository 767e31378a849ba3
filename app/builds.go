package app

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"cdxtheme/app/buildcard"
	"cdxtheme/app/opensafe"
	"cdxtheme/core/inside"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
)

// Leftovers are cleared away: a workspace whose first message never reached
// the agent, after unusedAfter; the trash, after trashFor.
const (
	unusedAfter = time.Hour
	trashFor    = 30 * 24 * time.Hour
)

// BuildCard is one build as Home shows it (buildcard.Card: its fields
// are the page's).
type BuildCard buildcard.Card

var pruneOnce sync.Once

// Builds lists the theme builds for Home, newest change first. Builds whose
// first message never reached the agent are not builds yet: they are left
// out, and removed once they are old (they hold nothing).
func (bu *Builds) Builds() []BuildCard {
	root := workspace.Root()
	bu.pruneTrash(root)
	list, problems := workspace.List(root)
	for _, p := range problems {
		bu.log.Warn().Err(p).Msg("workspace skipped")
	}
	out := []BuildCard{}
	for _, m := range list {
		if !m.Started() {
			if !bu.turns.busy(m.ID) && m.Unused() && time.Since(m.Created) > unusedAfter {
				if err := workspace.Remove(root, m.ID); err != nil {
					bu.log.Warn().Err(err).Str("workspace", m.ID).Msg("remove unused workspace")
				}
			}
			continue
		}
		out = append(out, bu.card(m))
	}
	sortCards(out)
	return out
}

// pruneTrash empties what was trashed more than trashFor ago, once a run,
// before Home first shows builds or the trash.
func (bu *Builds) pruneTrash(root string) {
	pruneOnce.Do(func() {
		if err := workspace.PruneTrash(root, trashFor); err != nil {
			bu.log.Warn().Err(err).Msg("empty the trash")
		}
	})
}

func sortCards(cards []BuildCard) {
	sort.SliceStable(cards, func(i, j int) bool { return cards[i].Changed.After(cards[j].Changed) })
}

// card is a build as Home shows it. A build that follows its theme's name
// takes it here too (theme.json may have changed while nobody watched).
func (bu *Builds) card(m workspace.Meta) BuildCard {
	st := themewatch.Load(m.Dir)
	return bu.cardOf(bu.followTheme(m, st), st)
}

// The "build" event carries a build's card after its name changed (a
// rename, or its theme's new name it follows), so every view showing the
// build shows the new name.

// followTheme gives a build that follows its theme (workspace.FollowTheme)
// the name of st, a valid theme.json just read, and tells the views.
func (bu *Builds) followTheme(m workspace.Meta, st themewatch.State) workspace.Meta {
	if !m.FollowsTheme || st.Theme == nil || st.Error != "" {
		return m
	}
	got, changed, err := workspace.FollowTheme(workspace.Root(), m.ID, st.Theme.Name)
	if err != nil {
		bu.log.Warn().Err(err).Str("workspace", m.ID).Msg("name the build after its theme")
		return m
	}
	if changed {
		bu.emit.Emit("build", bu.cardOf(got, st))
	}
	return got
}

func (bu *Builds) cardOf(m workspace.Meta, st themewatch.State) BuildCard {
	return BuildCard(buildcard.Of(m, st, bu.turns.busy(m.ID)))
}

// RenameBuild gives a build the user's name: the name Home, its chat's
// header and its sessions show, kept whatever the agent names the theme.
// The theme in theme.json takes the name too, so exports and installs are
// called what the user sees. An empty name gives the build its theme's.
func (bu *Builds) RenameBuild(id, title string) (BuildCard, error) {
	return bu.renameBuild(id, title)
}

func (bu *Builds) renameBuild(id, title string) (BuildCard, error) {
	m, err := workspace.Rename(workspace.Root(), id, title)
	if err != nil {
		return BuildCard{}, fmt.Errorf("rename build: %w", err)
	}
	if !m.FollowsTheme {
		if err := bu.editor.renameTheme(m); err != nil {
			// The build has its name; the theme keeps its own until the
			// next rename, and Home shows both.
			bu.log.Info().Err(err).Str("workspace", id).Msg("the theme keeps its name")
		}
	}
	c := bu.card(m)
	bu.emit.Emit("build", c)
	return c, nil
}

// DuplicateBuild copies a build (its files, not its chat) into a new one.
func (bu *Builds) DuplicateBuild(id string) (BuildCard, error) {
	m, err := workspace.Duplicate(workspace.Root(), id)
	if err != nil {
		return BuildCard{}, fmt.Errorf("duplicate build: %w", err)
	}
	return bu.card(m), nil
}

// DeleteBuild moves a build to the trash; RestoreBuild undoes it.
func (bu *Builds) DeleteBuild(id string) error {
	if bu.turns.busy(id) {
		return errors.New("delete build: the agent is working in it; stop the turn first")
	}
	bu.themes.unwatch(id)
	return wrapf(workspace.Trash(workspace.Root(), id), "delete build")
}

// RestoreBuild brings a deleted build back from the trash.
func (bu *Builds) RestoreBuild(id string) error {
	return wrapf(workspace.Restore(workspace.Root(), id), "restore build")
}

// DeletedBuild is one build in the trash, as Home's "Recently deleted"
// shows it.
type DeletedBuild struct {
	workspace.TrashEntry
	Expires time.Time `json:"expires" ts_type:"string"` // when it goes for good (trashFor after the delete)
}

// DeletedBuilds lists the builds in the trash, newest deletion first, so a
// delete can be undone after leaving Home or restarting (RestoreBuild).
// Damaged entries are logged and left where they are.
func (bu *Builds) DeletedBuilds() []DeletedBuild {
	root := workspace.Root()
	bu.pruneTrash(root)
	list, problems := workspace.Trashed(root)
	for _, p := range problems {
		bu.log.Warn().Err(p).Msg("trashed build skipped")
	}
	out := []DeletedBuild{}
	for _, e := range list {
		out = append(out, DeletedBuild{TrashEntry: e, Expires: e.Deleted.Add(trashFor)})
	}
	return out
}

// PurgeBuild deletes a build in the trash for good; nothing brings it back.
func (bu *Builds) PurgeBuild(id string) error {
	return wrapf(workspace.Purge(workspace.Root(), id), "delete build forever")
}

// Workspaces lists theme workspaces, newest first; broken ones are logged.
func (bu *Builds) Workspaces() []workspace.Meta {
	list, problems := workspace.List(workspace.Root())
	for _, p := range problems {
		bu.log.Warn().Err(p).Msg("workspace skipped")
	}
	if list == nil {
		list = []workspace.Meta{}
	}
	return list
}

// OpenWorkspaceFolder shows the workspace folder in the file manager.
func (bu *Builds) OpenWorkspaceFolder(workspaceID string) error {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return err
	}
	return bu.desktop.openLocal(ws.Dir)
}

// OpenPath opens a file the agent named (an artifact, a resource_link) with
// the OS, only after checking it lies inside the workspace; a program,
// script, launcher or anything but a viewable type is shown in its folder
// instead (see opensafe.RevealReason).
func (bu *Builds) OpenPath(workspaceID, path string) error {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return err
	}
	p, _, err := inside.Resolve(ws.Dir, path)
	if err != nil {
		return err
	}
	why, err := opensafe.RevealReason(p)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if why != "" {
		bu.log.Info().Str("path", p).Str("why", why).Msg("shown in its folder, not opened")
		return bu.desktop.revealLocal(p)
	}
	return bu.desktop.openLocal(p)
}
