// The example deck (deck.html) starts reveal.js. hash: the address follows the slide.
// RevealRvmLab (rvm-lab-reveal.js): the lab frame on the slide shown takes the keys, with no
// click, and gives them back to the deck when the slide is left, so a clicker walks a framed
// lesson and then the deck, and `s` steps a framed solver.
// The slides are 700 high and as wide as the window's shape, between 4 : 3 and 16 : 9, read
// when the deck opens: the deck scales them to the window, so a frame (`r-stretch`: the
// slide's height left under its title) takes the screen's width on a 16 : 9 projector and its
// height on a 4 : 3 one. At 1280 × 720 the frame is 1256 × 660 px on screen, its stage strip
// one line (53 px); reveal.js's 960 × 700 slides and a 600 px frame left it 903 × 594, the
// strip on two lines (102 px), and at 1280 × 800 the frame ended 37 px below the window.
// The slide shown and the next one are loaded (viewDistance 2, reveal's choice on a
// phone; its default elsewhere is 3): each frame is a whole page opening on the deck's own
// main thread, and the frame after next is loaded when the next slide is shown.
// scrollActivationWidth null: a phone gets the slides too, not reveal's scroll view. Moving
// the slides into scroll pages moves every frame, which starts each one again, and made the
// deck's first task 180–240 ms long on a phone-sized window here (60–80 ms without); a lab
// panel shown a slide at a time also keeps one panel, and the next, at work.
const HEIGHT = 700;
const shape = Math.min(Math.max(innerWidth / innerHeight, 4 / 3), 16 / 9);
Reveal.initialize({
  hash: true,
  width: Math.round(HEIGHT * shape),
  height: HEIGHT,
  margin: 0.02,
  viewDistance: 2,
  scrollActivationWidth: null,
  plugins: [RevealRvmLab],
});
