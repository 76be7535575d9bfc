// Sends the hand-in as multipart with each file's path inside the picked
// folder as its name, and shows the receipt the server answers at once.
(function () {
  var form = document.getElementById('handin');
  if (!form) return;
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var data = new FormData();
    var files = form.querySelector('input[name=file]').files;
    for (var i = 0; i < files.length; i++) {
      data.append('file', files[i], files[i].webkitRelativePath.replace(/^[^/]*\//, '') || files[i].name);
    }
    var zip = form.querySelector('input[name=zip]').files;
    if (zip.length) data.append('zip', zip[0], zip[0].name);
    var out = document.getElementById('receipt');
    out.textContent = 'sending…';
    fetch('/me/handin', { method: 'POST', body: data, headers: { 'Accept': 'application/json' }, credentials: 'same-origin' })
      .then(function (r) { return r.json().then(function (j) { return [r.ok, j]; }); })
      .then(function (x) {
        if (!x[0]) { out.textContent = 'refused: ' + x[1].error; return; }
        out.textContent = 'receipt: hand-in #' + x[1].id + ', source ' + x[1].hash.slice(0, 12) + (x[1].late ? ' (late)' : '') + ' — the build follows below';
        setTimeout(function () { location.reload(); }, 3000);
      })
      .catch(function (e) { out.textContent = 'could not send: ' + e; });
  });
})();
