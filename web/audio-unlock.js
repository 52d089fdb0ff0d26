// Browsers start an AudioContext created before any user gesture suspended. The game creates its context at
// start-up, so this shim remembers every context and resumes them at the first click, tap or key press.
(function () {
  const contexts = [];
  const Original = window.AudioContext || window.webkitAudioContext;
  if (!Original) return;
  const Wrapped = new Proxy(Original, {
    construct(target, args) {
      const ctx = new target(...args);
      contexts.push(ctx);
      return ctx;
    },
  });
  window.AudioContext = Wrapped;
  // For the page's tests: the states of the contexts ("suspended" until the first gesture, then "running").
  window.fanoronaAudioStates = () => contexts.map(c => c.state);
  window.webkitAudioContext = Wrapped;
  const events = ["pointerdown", "pointerup", "touchstart", "touchend", "mousedown", "keydown", "click"];
  function resume() {
    let pending = false;
    for (const ctx of contexts) {
      if (ctx.state === "suspended") {
        pending = true;
        ctx.resume().catch(() => {});
      }
    }
    if (!pending && contexts.length > 0) {
      events.forEach(e => document.removeEventListener(e, resume, true));
    }
  }
  events.forEach(e => document.addEventListener(e, resume, true));
})();
