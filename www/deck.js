// The example deck (deck.html) starts reveal.js. hash: the address follows the slide.
// reveal.js's postMessage API (on by default) is how a framed panel passes on the keys it does
// not use.
Reveal.initialize({ hash: true });
