package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	fstorage "fyne.io/fyne/v2/storage"
)

// showFileDialog shows a file or folder dialog sized to the window,
// starting in dir when dir can be listed (else where Fyne starts).
func showFileDialog(u *UI, d *dialog.FileDialog, dir string) {
	if l, err := fstorage.ListerForURI(fstorage.NewFileURI(dir)); dir != "" && err == nil {
		d.SetLocation(l)
	}
	d.Resize(dialogSize(u, 900, 620))
	d.Show()
}

// pickFile asks for an existing file, starting in dir and offering only
// names ending in one of exts (any file when none), and calls picked with
// its path. A dialog that cannot read the folder says why under failed.
func pickFile(u *UI, dir string, exts []string, failed string, picked func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			u.showError(failed, err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		picked(path)
	}, u.Win)
	if len(exts) > 0 {
		d.SetFilter(fstorage.NewExtensionFileFilter(exts))
	}
	showFileDialog(u, d, dir)
}
