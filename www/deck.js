// The example deck (deck.html) starts reveal.js. hash: the address follows the slide.
// reveal.js's postMessage API (on by default) is how a framed panel passes on the keys it does
// not use. The slide shown and the next one are loaded (viewDistance 2, reveal's choice on a
// phone; its default elsewhere is 3): each frame is a whole page opening on the deck's own
// main thread, and the frame after next is loaded when the next slide is shown.
Reveal.initialize({ hash: true, viewDistance: 2 });
