package acp

import (
	"encoding/json"
	"fmt"
)

// Content block types.
const (
	BlockText         = "text"
	BlockImage        = "image"
	BlockAudio        = "audio"
	BlockResourceLink = "resource_link"
	BlockResource     = "resource"
)

// ResourceContents is the body of an embedded resource: text or blob
// (base64), told apart by which pointer is set.
type ResourceContents struct {
	URI      string          `json:"uri"`
	MimeType string          `json:"mimeType,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Blob     *string         `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// ContentBlock is one piece of a message. Which fields mean something
// depends on Type:
//
//	text:          Text
//	image:         Data (base64), MimeType, URI (optional)
//	audio:         Data (base64), MimeType
//	resource_link: URI, Name, Title, MimeType, Size
//	resource:      Resource
//
// A block of an unknown type fills only Type and Raw; it is never decoded
// into a known shape. Raw holds the block as received and is what
// MarshalJSON writes back, so _meta and unknown fields survive a round trip.
type ContentBlock struct {
	// The tags name the fields as on the wire (MarshalJSON writes them so),
	// for internal/tools/tsgen; encoding/json uses the methods.
	Type        string            `json:"type"`
	Text        string            `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Size        *int64            `json:"size,omitempty"`
	Resource    *ResourceContents `json:"resource,omitempty"`
	Annotations json.RawMessage   `json:"annotations,omitempty"`
	Meta        json.RawMessage   `json:"_meta,omitempty"`
	Raw         json.RawMessage   `json:"-"`
}

// Known reports whether Type is one of the five ACP v1 block types.
func (b ContentBlock) Known() bool {
	switch b.Type {
	case BlockText, BlockImage, BlockAudio, BlockResourceLink, BlockResource:
		return true
	}
	return false
}

// TextBlock returns a text block.
func TextBlock(text string) ContentBlock { return ContentBlock{Type: BlockText, Text: text} }

// blockWire is every field any block type has on the wire.
type blockWire struct {
	Type        string            `json:"type"`
	Text        *string           `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Size        *int64            `json:"size,omitempty"`
	Resource    *ResourceContents `json:"resource,omitempty"`
	Annotations json.RawMessage   `json:"annotations,omitempty"`
	Meta        json.RawMessage   `json:"_meta,omitempty"`
}

// UnmarshalJSON decodes known block types and keeps Raw for all. One
// decode serves both the discriminator and the fields: this is the
// streamed-text hot path.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var w blockWire
	err := json.Unmarshal(data, &w)
	*b = ContentBlock{Type: w.Type, Raw: append(json.RawMessage(nil), data...)}
	if !b.Known() {
		if err != nil {
			// An unknown block may use our field names for other things;
			// only its type matters, and that must still be readable.
			var probe struct {
				Type string `json:"type"`
			}
			if perr := json.Unmarshal(data, &probe); perr != nil {
				return perr
			}
			b.Type = probe.Type
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s block: %w", w.Type, err)
	}
	if w.Text != nil {
		b.Text = *w.Text
	}
	b.Data, b.MimeType, b.URI, b.Name, b.Title, b.Size = w.Data, w.MimeType, w.URI, w.Name, w.Title, w.Size
	b.Resource, b.Annotations, b.Meta = w.Resource, w.Annotations, w.Meta
	return nil
}

// MarshalJSON writes Raw when set, else the fields the block's type has
// (required ones always, even when empty).
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	if len(b.Raw) > 0 {
		return b.Raw, nil
	}
	w := blockWire{Type: b.Type, Annotations: b.Annotations, Meta: b.Meta}
	switch b.Type {
	case BlockText:
		t := b.Text
		w.Text = &t
	case BlockImage:
		if b.Data == "" || b.MimeType == "" {
			return nil, fmt.Errorf("image block: data and mimeType are required")
		}
		w.Data, w.MimeType, w.URI = b.Data, b.MimeType, b.URI
	case BlockAudio:
		if b.Data == "" || b.MimeType == "" {
			return nil, fmt.Errorf("audio block: data and mimeType are required")
		}
		w.Data, w.MimeType = b.Data, b.MimeType
	case BlockResourceLink:
		if b.URI == "" || b.Name == "" {
			return nil, fmt.Errorf("resource_link block: uri and name are required")
		}
		w.URI, w.Name, w.Title, w.MimeType, w.Size = b.URI, b.Name, b.Title, b.MimeType, b.Size
	case BlockResource:
		if b.Resource == nil || b.Resource.URI == "" || (b.Resource.Text == nil) == (b.Resource.Blob == nil) {
			return nil, fmt.Errorf("resource block: resource needs a uri and exactly one of text or blob")
		}
		w.Resource = b.Resource
	default:
		return nil, fmt.Errorf("content block of unknown type %q has no raw form to send", b.Type)
	}
	return json.Marshal(w)
}
