package telegramtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"path"
	"strings"

	"github.com/go-telegram/bot/models"
)

// Documents (sendDocument), as https://core.telegram.org/bots/api#senddocument
// describes them: the file is uploaded (multipart/form-data) or named by the
// file_id of a document sent before (an HTTP URL Telegram would fetch, the
// fake cannot); a caption of 0-1024 characters after entities parsing, with
// parse_mode or caption_entities; an inline keyboard like any message. A
// bot's upload is limited to 50 MB and must not be empty. The answer is the
// Message with its document (file_id, file_unique_id, file_name, mime_type,
// file_size) and caption. A document message has no text: editMessageText
// refuses it.

// maxUpload is the largest file a bot may upload (50 MB).
const maxUpload = 50 << 20

// Document is a document message's file as the bot sent it.
type Document struct {
	FileID   string
	FileName string
	MimeType string
	Data     []byte
}

func (s *Server) sendDocument(_ context.Context, p params) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, thread, e := s.postingLocked(p)
	if e != nil {
		return nil, e
	}
	var doc *Document
	if data, uploaded := p[uploadKey("document")]; uploaded {
		switch {
		case len(data) == 0:
			return nil, badRequest("file must be non-empty")
		case len(data) > maxUpload:
			return nil, &APIError{Code: 413, Description: "Request Entity Too Large"}
		}
		name := p["document"]
		if name == "" {
			name = "document"
		}
		sum := sha256.Sum256([]byte(data))
		doc = &Document{FileID: "BQAC" + hex.EncodeToString(sum[:12]), FileName: name, MimeType: mimeOf(name), Data: []byte(data)}
		if s.documents == nil {
			s.documents = map[string]*Document{}
		}
		s.documents[doc.FileID] = doc
	} else {
		d, ok := s.documents[p["document"]]
		if !ok {
			return nil, badRequest("wrong file identifier/HTTP URL specified")
		}
		doc = d
	}
	caption, ents, e := parseCaption(p)
	if e != nil {
		return nil, e
	}
	kb, e := parseKeyboard(p["reply_markup"])
	if e == nil {
		e = checkWebApps(c, kb)
	}
	if e != nil {
		return nil, e
	}
	m := s.addMessageLocked(c, s.bot, thread, "", nil)
	m.doc, m.caption, m.captionEntities = doc, caption, ents
	m.keyboard, m.parseMode = kb, p["parse_mode"]
	return s.wireLocked(c, m), nil
}

// parseCaption reads a caption as parseText reads a text, but it may be
// empty and holds at most 1024 characters.
func parseCaption(p params) (string, []models.MessageEntity, *APIError) {
	if p["caption"] == "" {
		return "", nil, nil
	}
	q := params{"text": p["caption"], "parse_mode": p["parse_mode"], "entities": p["caption_entities"]}
	text, ents, e := parseText(q)
	if e != nil {
		if strings.Contains(e.Description, "message text is empty") {
			return "", nil, nil
		}
		return "", nil, e
	}
	if utf16Len(text) > 1024 {
		return "", nil, badRequest("message caption is too long")
	}
	return text, ents, nil
}

// mimeOf is the type Telegram detects for a file name's extension.
func mimeOf(name string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		t, _, _ = strings.Cut(t, ";")
		return t
	}
	return "application/octet-stream"
}
