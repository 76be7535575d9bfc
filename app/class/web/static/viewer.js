// The browser's replay viewer: the server draws each frame with the
// desktop viewer's boards; this only scrubs, places the timeline's
// markers and shows the student's own seat's lines. A game in play is
// followed: the viewer polls its step count and, while "follow" is on,
// shows the newest step; scrubbing back turns follow off.
(function () {
  var v = document.getElementById('viewer');
  if (!v) return;
  var game = v.dataset.game, steps = +v.dataset.steps, seat = null;
  var playing = v.dataset.playing === 'true';
  var img = document.getElementById('frame'), scrub = document.getElementById('scrub');
  var follow = document.getElementById('follow');
  var marks = document.querySelectorAll('.mark');
  function place() {
    scrub.max = Math.max(0, steps - 1);
    for (var k = 0; k < marks.length; k++) {
      marks[k].style.left = (steps > 1 ? 100 * (+marks[k].dataset.at) / (steps - 1) : 0) + '%';
    }
  }
  function show(i) {
    i = Math.max(0, Math.min(steps - 1, i));
    scrub.value = i;
    // A game in play's boards say how many steps are known: the count in
    // the address brings the board drawn with it.
    img.src = '/me/replay/' + game + '/frame/' + i + '.png' + (playing ? '?of=' + steps : '');
    var s = seat && seat.steps[i];
    document.getElementById('pos').textContent = 'step ' + (i + 1) + ' / ' + steps + (s ? ' · turn ' + s.turn : '');
    document.getElementById('input').textContent = s && s.asked ? s.input : '(not asked this step)';
    document.getElementById('reply').textContent = s && s.asked ? (s.reply === null ? '(' + s.status + ')' : s.reply) : '';
    document.getElementById('stderr').textContent = s ? s.stderr : '';
    v.dataset.step = i;
  }
  // moved is a step the student chose: anywhere but the newest step
  // stops following.
  function moved(i) {
    if (follow && i < steps - 1) follow.checked = false;
    show(i);
  }
  scrub.addEventListener('input', function () { moved(+scrub.value); });
  document.getElementById('back').onclick = function () { moved(+scrub.value - 1); };
  document.getElementById('fwd').onclick = function () { moved(+scrub.value + 1); };
  for (var k = 0; k < marks.length; k++) {
    marks[k].onclick = function () { moved(+this.dataset.step); };
  }
  if (follow) {
    follow.addEventListener('change', function () { if (follow.checked) show(steps - 1); });
  }
  function loadSeat() {
    return fetch('/me/game/' + game + '/seat.json', { credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (j) { seat = j; show(+scrub.value); });
  }
  // poll asks how far the game is until it ends; new steps bring the
  // seat's new lines and, when following, the newest board.
  function poll() {
    fetch('/me/game/' + game + '/steps.json', { credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (j) {
        var grew = j.steps !== steps;
        steps = j.steps;
        v.dataset.steps = steps;
        v.dataset.playing = j.playing;
        if (!j.playing && playing) grew = true; // the finished game's boards
        playing = j.playing;
        if (grew) {
          place();
          if (follow && follow.checked) show(steps - 1);
          loadSeat();
        }
        if (j.playing) setTimeout(poll, 1000);
        else if (follow) { follow.checked = false; follow.disabled = true; }
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  place();
  loadSeat();
  show(playing && follow && follow.checked ? steps - 1 : 0);
  if (playing) setTimeout(poll, 1000);
})();
