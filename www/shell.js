// The shell's words before the page's module: a panel in English — the page as most readers
// first meet it — shows its text (the header, the panel's title and introduction) as soon as
// the English strings and the panel's own words are in, which the start-up guard (boot.js)
// asks for beside the module, instead of once the module and the solver have started.
//
// A module of its own, which boot.js puts in only for such a page: its words are those of
// strings/en.js and strings/en/<panel>.js (the same modules app.js imports, so they load
// once), and a browser too old for modules never reads it (boot.js must parse everywhere, to
// say why the lab cannot start). app.js puts the same words in again, so nothing moves.

import english from './strings/en.js';

const startup = window.rvmLabStartup;
import(`./strings/en/${startup.shellPanel}.js`).then(
  ({ default: own }) => startup.showShell({ ...english, ...own }),
  () => {},
);
