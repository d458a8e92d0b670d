// RevealRvmLab: a reveal.js plugin that hands the keyboard to the RVM Lab frame on the slide
// shown, so that a clicker walks a framed lesson and `s` steps a framed solver with no click.
//
//   <script src="rvm-lab/rvm-lab-reveal.js"></script>
//   <script>Reveal.initialize({ plugins: [RevealRvmLab] });</script>
//
// A classic script (as reveal.js's own plugins are), so a deck needs no build step; a module
// deck imports it for its effect (`import './rvm-lab-reveal.js'`) and uses
// `window.RevealRvmLab`. The Quarto extension (quarto/_extensions/rvm-lab/) wraps this same
// file. The lab's frames are `<iframe class="rvm-lab">` (or `data-rvm-lab`), and any frame that
// speaks the lab's messages, such as the "Share / embed" snippet's, from its first message on.
//
// Without it a lab frame takes keys only once clicked: the deck keeps the focus, and a key
// reaches the frame only when the frame has it. With it:
// - When a slide is shown (the deck ready, a slide changed, the overview closed, the pause
//   ended) the lab frame on it takes the focus: `iframe.focus()` from the deck, which a
//   browser allows across origins. A frame still loading takes it again at its first message.
// - When the slide is left, or shows no lab, or the overview or the pause begins, the focus
//   goes back to the deck.
// - The lab posts each key it does not use (a lesson's → on its last step, a panel's Escape)
//   as a reveal.js API call ('{"method":"next"}' …), which reveal.js carries out itself, and as
//   `{type: "rvm-lab:key", key, code, shiftKey}`: a key that came with no API call (Home, End,
//   `f`, another plugin's key) is replayed here to the deck's keyboard handlers, so every key
//   of the deck still works while a frame has the focus.
// - Each lab frame is told the deck's scale, `{type: "rvm-lab:scale", scale}`, and the deck
//   window's size, `view: [width, height]`: a frame on another origin cannot measure the
//   deck, and draws crisp and sizes its stage text by them. `focus: true` tells the lab that
//   the deck hands the keyboard over, so it does not give the focus back itself when its
//   slide is left (www/host.js).
//
// Options: `Reveal.initialize({ rvmLab: { selector: 'iframe.rvm-lab, iframe[data-rvm-lab]' } })`
// names the lab's frames.

(function () {
  'use strict';

  /** The lab's frames, known before they speak. */
  const SELECTOR = 'iframe.rvm-lab, iframe[data-rvm-lab]';

  /** The deck's events after which the keyboard changes hands. */
  const HAND_OVER = ['ready', 'slidechanged', 'overviewshown', 'overviewhidden', 'paused', 'resumed'];

  /** Key codes of keys replayed to the deck that are neither letters nor digits (reveal.js's
   *  keyboard, and plugins' key bindings, go by `keyCode`). */
  const KEY_CODES = { Enter: 13, Home: 36, End: 35, Backspace: 8, Delete: 46, '/': 191, ',': 188, '.': 190, '-': 189, '+': 187, '=': 187 };

  /** `event.data` as a reveal.js API call's method, or undefined. */
  function apiMethod(data) {
    if (typeof data !== 'string' || !data.startsWith('{')) return undefined;
    try {
      return JSON.parse(data).method;
    } catch {
      return undefined;
    }
  }

  /** The legacy key code of a key, by its `key` and `code` (`KeyF` → 70, `Digit3` → 51). */
  function keyCodeOf(key, code) {
    if (key in KEY_CODES) return KEY_CODES[key];
    const letter = /^Key([A-Z])$/.exec(code ?? '');
    if (letter) return letter[1].charCodeAt(0);
    const digit = /^(?:Digit|Numpad)(\d)$/.exec(code ?? '');
    return digit ? 48 + Number(digit[1]) : 0;
  }

  /** The plugin, for `Reveal.initialize({ plugins: [RevealRvmLab] })`. */
  function RevealRvmLab() {
    let deck;
    let selector = SELECTOR;
    /** Frames known to hold the lab by their messages. */
    const speakers = new WeakSet();
    /** Lab frames heard from since they last loaded. */
    const heard = new WeakSet();
    /** Frames whose last message was a reveal.js API call (the lab's key that follows it
     *  needs no replay). */
    const called = new WeakSet();

    const isLab = (frame) => speakers.has(frame) || frame.matches(selector);
    const frameOf = (source) => [...document.querySelectorAll('iframe')].find((frame) => frame.contentWindow === source);

    /** The lab frame on the slide shown, or null while the deck is in its overview or paused
     *  (the deck's own keys move there), and in the speaker view's copies of the deck (the
     *  speaker's keys belong to the speaker view). */
    function shownLab() {
      const slide = deck.getCurrentSlide();
      if (!slide || deck.isOverview() || deck.isPaused() || deck.isSpeakerNotes()) return null;
      return [...slide.querySelectorAll('iframe')].find(isLab) ?? null;
    }

    /** Gives the keyboard to the lab frame on the slide shown, or back to the deck: a frame
     *  that is a lab, or on no slide shown, gives the focus up. */
    function handOver() {
      const frame = shownLab();
      const focused = document.activeElement;
      if (frame) {
        // A frame given the focus while its page was loading (a deck opened at its slide) is
        // the deck's focused element, but Chromium may leave the page it loads without the
        // keys, and focus() on a focused element does nothing (nor, there, always its
        // window's focus()): the frame is let go first, then focused again.
        if (focused === frame) frame.blur();
        frame.focus({ preventScroll: true });
        frame.contentWindow?.focus();
      } else if (focused?.tagName === 'IFRAME' && (isLab(focused) || !deck.getCurrentSlide()?.contains(focused))) {
        focused.blur();
      }
    }

    /** handOver in a task of its own, after the one that changed the slide: Firefox (ESR 153)
     *  keeps the focus from moving into a frame of another site while a key's event is being
     *  handled there, as when → on the deck shows a slide, and the frame had no keys. */
    function handOverSoon() {
      setTimeout(handOver);
    }

    /** Tells `frame` how much the deck scales it and how large the deck's window is, and that
     *  the deck hands the keyboard over itself (so the lab does not give the focus back to
     *  the deck when its slide is left: that would take it from the next slide's frame). */
    function tellScale(frame) {
      const message = { type: 'rvm-lab:scale', scale: deck.getScale(), view: [innerWidth, innerHeight], focus: true };
      frame.contentWindow?.postMessage(message, '*');
    }

    /** Replays a key the lab passed on with no API call to the deck's keyboard handlers. */
    function replay({ key, code, shiftKey }) {
      const keyCode = keyCodeOf(key, code);
      const event = new KeyboardEvent('keydown', { key, code, shiftKey, bubbles: true, cancelable: true });
      // The init dictionary's keyCode is not honoured everywhere; the property is read-only.
      Object.defineProperties(event, { keyCode: { value: keyCode }, which: { value: keyCode } });
      document.dispatchEvent(event);
    }

    /** A frame's message: a reveal.js API call (noted, so the lab's key that follows is not
     *  replayed), or the lab's word (the frame is a lab; its first since loading tells it the
     *  scale and gives it the keys if shown; a passed-on key with no API call is replayed). */
    function onMessage({ source, data }) {
      const frame = source && frameOf(source);
      if (!frame) return;
      if (apiMethod(data) !== undefined) {
        // reveal.js carries the call out itself, unless its postMessage API is off.
        if (deck.getConfig().postMessage) called.add(frame);
        return;
      }
      const fromLab = typeof data?.type === 'string' ? data.type.startsWith('rvm-lab:') : Number.isFinite(data?.rvmLabHeight);
      if (!fromLab) return;
      speakers.add(frame);
      if (!heard.has(frame)) {
        // A frame's first word since it loaded: it is a lab, and ready for the keys.
        heard.add(frame);
        tellScale(frame);
        if (frame === shownLab()) handOverSoon();
      }
      if (data.type === 'rvm-lab:key') {
        if (called.has(frame)) called.delete(frame);
        else replay(data);
      }
    }

    /** A frame that loads (again) is heard afresh: at its first word it is told the scale and,
     *  on the slide shown, takes the keys. */
    function onLoad({ target }) {
      if (target.tagName === 'IFRAME') heard.delete(target);
    }

    /** After the deck's layout changes, every lab frame hears the new scale. */
    function onResize() {
      for (const frame of document.querySelectorAll('iframe')) if (isLab(frame)) tellScale(frame);
    }

    return {
      id: 'rvm-lab',
      init(reveal) {
        deck = reveal;
        selector = deck.getConfig().rvmLab?.selector ?? SELECTOR;
        window.addEventListener('message', onMessage);
        // load does not bubble; a listener capturing on the document hears every frame's.
        document.addEventListener('load', onLoad, true);
        for (const type of HAND_OVER) deck.on(type, handOverSoon);
        deck.on('resize', onResize);
        if (deck.isReady()) handOverSoon();
      },
      destroy() {
        window.removeEventListener('message', onMessage);
        document.removeEventListener('load', onLoad, true);
        for (const type of HAND_OVER) deck.off(type, handOverSoon);
        deck.off('resize', onResize);
      },
    };
  }

  globalThis.RevealRvmLab = RevealRvmLab;
})();
