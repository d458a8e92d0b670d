// A lesson as a course activity of an LMS (Moodle, Canvas, Blackboard, Brightspace …), by SCORM
// 1.2's run-time API: the LMS puts an object `API` on a window above the lesson's (its frame's
// parent, or the window that opened it); the lesson finds it, starts a session
// (LMSInitialize), keeps its step in `cmi.core.lesson_location` so that a student resumes where
// they left, reports `cmi.core.lesson_status` = "completed" once the last step is reached, and
// ends the session when the page goes (LMSFinish). Where there is no LMS nothing is found and
// the lesson works as anywhere else. scripts/package.mjs builds the packages
// (dist/scorm/<lesson>.zip).
//
// This module only looks for the LMS; the session (scorm-session.js) is loaded when there is
// one, so that a page outside an LMS does not carry it.

import { scormSessionModule } from './assets.js';

/** How many windows up the search goes (the ADL's reference finder goes 500; LMSs nest a few). */
const MAX_DEPTH = 10;

/** The SCORM 1.2 `API` object on `start` or a window above it, or null. A window of another
 *  origin cannot be read: the search goes on above it. */
function apiAbove(start) {
  let win = start;
  for (let depth = 0; win && depth < MAX_DEPTH; depth += 1) {
    try {
      if (win.API && typeof win.API.LMSInitialize === 'function') return win.API;
    } catch {
      // Another origin's window.
    }
    if (win.parent === win) break;
    win = win.parent;
  }
  return null;
}

/** The LMS's API: above this window, else above the window that opened it; null without one. */
export function findApi() {
  const above = apiAbove(window.parent === window ? null : window.parent);
  if (above) return above;
  try {
    return window.opener ? apiAbove(window.opener) : null;
  } catch {
    return null;
  }
}

/** A session with the LMS above this window for lesson `lesson` (ScormSession), or null where
 *  there is no LMS, it refuses one, or the session's module cannot be loaded (the lesson then
 *  works as outside an LMS, and the console says why). */
export async function startScorm(lesson) {
  const api = findApi();
  if (!api) return null;
  try {
    const { ScormSession } = await scormSessionModule();
    return ScormSession.start(api, lesson);
  } catch (error) {
    console.warn(`RVM Lab: the lesson does not report to the LMS (${error?.message ?? error})`);
    return null;
  }
}
