// The browser's replay viewer: the server draws each frame with the
// desktop viewer's boards; this only scrubs, places the timeline's
// markers and shows the student's own seat's lines.
(function () {
  var v = document.getElementById('viewer');
  if (!v) return;
  var game = v.dataset.game, steps = +v.dataset.steps, seat = null;
  var img = document.getElementById('frame'), scrub = document.getElementById('scrub');
  scrub.max = Math.max(0, steps - 1);
  function show(i) {
    i = Math.max(0, Math.min(steps - 1, i));
    scrub.value = i;
    img.src = '/me/replay/' + game + '/frame/' + i + '.png';
    var s = seat && seat.steps[i];
    document.getElementById('pos').textContent = 'step ' + (i + 1) + ' / ' + steps + (s ? ' · turn ' + s.turn : '');
    document.getElementById('input').textContent = s && s.asked ? s.input : '(not asked this step)';
    document.getElementById('reply').textContent = s && s.asked ? (s.reply === null ? '(' + s.status + ')' : s.reply) : '';
    document.getElementById('stderr').textContent = s ? s.stderr : '';
    v.dataset.step = i;
  }
  scrub.addEventListener('input', function () { show(+scrub.value); });
  document.getElementById('back').onclick = function () { show(+scrub.value - 1); };
  document.getElementById('fwd').onclick = function () { show(+scrub.value + 1); };
  var marks = document.querySelectorAll('.mark');
  for (var k = 0; k < marks.length; k++) {
    var m = marks[k];
    m.style.left = (steps > 1 ? 100 * (+m.dataset.at) / (steps - 1) : 0) + '%';
    m.onclick = function () { show(+this.dataset.step); };
  }
  fetch('/me/game/' + game + '/seat.json', { credentials: 'same-origin' })
    .then(function (r) { return r.json(); })
    .then(function (j) { seat = j; show(+scrub.value); });
  show(0);
})();
