package class

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sync"

	"github.com/skip2/go-qrcode"

	"ringside/app/service"
)

// slipsPage is the printable page of the class's slips, parsed at its
// first use (see the results sheet's template).
var slipsPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("slips").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Ringside class slips</title>
<style>
body{font-family:sans-serif;margin:1cm}
.slip{display:inline-block;width:8.5cm;border:1px dashed #888;padding:.4cm;margin:.2cm;vertical-align:top;page-break-inside:avoid}
.name{font-size:14pt;font-weight:bold}.tok{font-family:monospace;font-size:12pt}
.fp{font-family:monospace;font-size:6.5pt;word-break:break-all}img{float:right;width:2.6cm}
</style></head><body>
{{range .Slips}}<div class="slip"><img alt="QR code of the address" src="data:image/png;base64,{{.QR}}">
<div class="name">{{.Name}}</div><div>Address: {{$.URL}}</div><div>Token:</div><div class="tok">{{.Token}}</div>
<div class="fp">Certificate fingerprint (your browser or ringside submit shows it): {{$.Fingerprint}}</div></div>
{{end}}</body></html>
`))
})

// QR is a QR code of text as a PNG of size pixels.
func QR(text string, size int) ([]byte, error) {
	png, err := qrcode.Encode(text, qrcode.Medium, size)
	if err != nil {
		return nil, fmt.Errorf("QR code of %s: %w", text, err)
	}
	return png, nil
}

// WriteSlips writes one printable HTML page with a slip per student whose
// token is valid: name, the address to type (url), a new token and a QR
// code of the address. Tokens are kept only hashed, so every slip's token
// is reissued: earlier slips stop working. It returns how many slips.
func WriteSlips(svc *service.Service, url string, w io.Writer) (int, error) {
	_, fp, err := Certificate(svc)
	if err != nil {
		return 0, err
	}
	png, err := QR(url, 256)
	if err != nil {
		return 0, err
	}
	qr := base64.StdEncoding.EncodeToString(png)
	roster, err := svc.ClassRoster()
	if err != nil {
		return 0, err
	}
	type slip struct{ Name, Token, QR string }
	var slips []slip
	for _, st := range roster {
		if st.Revoked {
			continue
		}
		t, err := svc.IssueToken(st.AIID)
		if err != nil {
			return 0, err
		}
		slips = append(slips, slip{Name: st.Name, Token: t.Token, QR: qr})
	}
	if err := slipsPage().Execute(w, map[string]any{"Slips": slips, "URL": url, "Fingerprint": fp}); err != nil {
		return 0, fmt.Errorf("write the slips: %w", err)
	}
	return len(slips), nil
}
