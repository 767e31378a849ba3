// Package opensafe decides what of the agent's output may reach the OS:
// a link only when it is a web or mail link (CheckLink), a file only when
// it is a type the default handler shows rather than runs (RevealReason;
// anything else is revealed in its folder instead).
package opensafe

import (
	"fmt"
	"net/url"
	"strings"
)

// CheckLink accepts web and mail links only; anything else (file:, javascript:,
// custom schemes that launch programs) is refused with a reason. It returns
// the link to open: a mailto: link keeps only its recipients, subject and body.
func CheckLink(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("link %q: %w", raw, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "", fmt.Errorf("link %q has no host", raw)
		}
		if u.User != nil {
			return "", fmt.Errorf("link %q carries credentials; not opened", raw)
		}
	case "mailto":
		return mailto(u), nil
	default:
		return "", fmt.Errorf("link %q: only http, https and mailto links are opened", raw)
	}
	return u.String(), nil
}

// mailKeep are the mailto: fields a mail client may be handed: where to and
// what to say. attach=, attachment=, bcc=, from= and headers of the agent's
// choosing are dropped.
var mailKeep = []string{"to", "cc", "subject", "body"}

// mailto rebuilds a mailto: link from its recipients and the kept fields.
// RFC 6068 reads "+" literally and wants %20 for a space, so the query is
// decoded and encoded by hand rather than as a form.
func mailto(u *url.URL) string {
	fields := map[string][]string{}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		k, v, _ := strings.Cut(kv, "=")
		val, err := url.PathUnescape(v)
		if err != nil {
			continue
		}
		k = strings.ToLower(k)
		fields[k] = append(fields[k], val)
	}
	var b strings.Builder
	b.WriteString("mailto:")
	b.WriteString(u.Opaque)
	sep := "?"
	for _, k := range mailKeep {
		for _, v := range fields[k] {
			enc := strings.NewReplacer("+", "%20", "%40", "@").Replace(url.QueryEscape(v))
			b.WriteString(sep + k + "=" + enc)
			sep = "&"
		}
	}
	return b.String()
}
