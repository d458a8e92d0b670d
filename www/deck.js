// The example deck (deck.html) starts reveal.js. hash: the address follows the slide.
// reveal.js's postMessage API (on by default) is how a framed panel passes on the keys it does
// not use. The slide shown and the next one are loaded (viewDistance 2, reveal's choice on a
// phone; its default elsewhere is 3): each frame is a whole page opening on the deck's own
// main thread, and the frame after next is loaded when the next slide is shown.
// scrollActivationWidth null: a phone gets the slides too, not reveal's scroll view. Moving
// the slides into scroll pages moves every frame, which starts each one again, and made the
// deck's first task 180–240 ms long on a phone-sized window here (60–80 ms without); a lab
// panel shown a slide at a time also keeps one panel, and the next, at work.
Reveal.initialize({ hash: true, viewDistance: 2, scrollActivationWidth: null });
