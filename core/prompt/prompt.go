// Package prompt builds and checks what a message sends an agent: text,
// inline images and audio, embedded resources, links to files inside the
// workspace, and the user's attachments (their size limits, and the
// blocks each becomes by the agent's prompt capabilities). Nothing here
// reaches a file outside the workspace.
package prompt

import (
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path/filepath"

	"cdxtheme/core/acp"
	"cdxtheme/core/inside"
)

// Text is a prompt of one text block.
func Text(text string) []acp.ContentBlock {
	return []acp.ContentBlock{acp.TextBlock(text)}
}

// ImageBlock is an inline image. Agents accept it only when they advertise
// promptCapabilities.image; Run checks before sending.
func ImageBlock(data []byte, mimeType string) acp.ContentBlock {
	return acp.ContentBlock{Type: acp.BlockImage, Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType}
}

// AudioBlock is inline audio (needs promptCapabilities.audio).
func AudioBlock(data []byte, mimeType string) acp.ContentBlock {
	return acp.ContentBlock{Type: acp.BlockAudio, Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType}
}

// ResourceBlock embeds a text document (needs promptCapabilities.embeddedContext).
func ResourceBlock(uri, mimeType, text string) acp.ContentBlock {
	return acp.ContentBlock{Type: acp.BlockResource, Resource: &acp.ResourceContents{URI: uri, MimeType: mimeType, Text: &text}}
}

// FileLink refers the agent to a file inside the workspace cwd as a
// resource_link with a file:// URI. Files outside cwd (also through ".."
// or symlinks) and non-regular files are refused: the agent would read
// them with the user's rights.
func FileLink(cwd, path string) (acp.ContentBlock, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	_, fi, err := inside.Resolve(cwd, path)
	if err != nil {
		return acp.ContentBlock{}, attachErr(path, cwd, err)
	}
	if !fi.Mode().IsRegular() {
		return acp.ContentBlock{}, fmt.Errorf("attach %s: not a regular file", path)
	}
	size := fi.Size()
	return acp.ContentBlock{
		Type:     acp.BlockResourceLink,
		URI:      inside.FileURI(path),
		Name:     filepath.Base(path),
		MimeType: mime.TypeByExtension(filepath.Ext(path)),
		Size:     &size,
	}, nil
}

// attachErr says why path cannot be attached: outside the workspace, or
// what the system said.
func attachErr(path, cwd string, err error) error {
	if errors.Is(err, inside.ErrOutside) {
		return fmt.Errorf("attach %s: only files inside the workspace %s can be attached", path, cwd)
	}
	return fmt.Errorf("attach %s: %w", path, err)
}

// Check rejects a prompt the agent could not take: an empty one,
// blocks its promptCapabilities do not allow, and resource links that are
// not files inside cwd. Run calls it after initialize, before sending.
func Check(blocks []acp.ContentBlock, caps acp.PromptCapabilities, cwd string) error {
	if len(blocks) == 0 {
		return fmt.Errorf("empty prompt")
	}
	for i, b := range blocks {
		switch b.Type {
		case acp.BlockText:
		case acp.BlockImage:
			if !caps.Image {
				return fmt.Errorf("prompt block %d: the agent does not accept images", i+1)
			}
		case acp.BlockAudio:
			if !caps.Audio {
				return fmt.Errorf("prompt block %d: the agent does not accept audio", i+1)
			}
		case acp.BlockResource:
			if !caps.EmbeddedContext {
				return fmt.Errorf("prompt block %d: the agent does not accept embedded resources", i+1)
			}
		case acp.BlockResourceLink:
			u, err := url.Parse(b.URI)
			if err != nil || u.Scheme != "file" {
				return fmt.Errorf("prompt block %d: resource link %q is not a file:// URI", i+1, b.URI)
			}
			if _, _, err := inside.Resolve(cwd, b.URI); err != nil {
				return fmt.Errorf("prompt block %d: %w", i+1, attachErr(u.Path, cwd, err))
			}
		default:
			return fmt.Errorf("prompt block %d: unknown content type %q", i+1, b.Type)
		}
	}
	return nil
}
