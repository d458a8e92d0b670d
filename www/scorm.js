// A lesson as a course activity of an LMS (Moodle, Canvas, Blackboard, Brightspace …), by SCORM
// 1.2's run-time API: the LMS puts an object `API` on a window above the lesson's (its frame's
// parent, or the window that opened it); the lesson finds it, starts a session
// (LMSInitialize), keeps its step in `cmi.core.lesson_location` so that a student resumes where
// they left, reports `cmi.core.lesson_status` = "completed" once the last step is reached, and
// ends the session when the page goes (LMSFinish). Where there is no LMS nothing is found and
// the lesson works as anywhere else. scripts/package.mjs builds the packages
// (dist/scorm/<lesson>.zip).

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

/** A session with the LMS, for one lesson (the package's, `lesson`). */
export class ScormSession {
  /** Starts a session on `api` for lesson `lesson`; `null` without an API or when the LMS
   *  refuses it. */
  static start(api, lesson) {
    if (!api || String(api.LMSInitialize('')) !== 'true') return null;
    return new ScormSession(api, lesson);
  }

  constructor(api, lesson) {
    this.api = api;
    this.lesson = lesson;
    this.started = performance.now();
    this.completed = this.get('cmi.core.lesson_status') === 'completed';
    this.finished = false;
    if (['', 'not attempted'].includes(this.get('cmi.core.lesson_status'))) this.set('cmi.core.lesson_status', 'incomplete');
    addEventListener('pagehide', () => this.finish());
  }

  get(element) {
    return String(this.api.LMSGetValue(element) ?? '');
  }

  set(element, value) {
    return String(this.api.LMSSetValue(element, String(value))) === 'true';
  }

  /** The step (1-based) the student left the lesson at, or null for a first attempt. */
  resumeStep() {
    const step = Number(this.get('cmi.core.lesson_location'));
    return Number.isInteger(step) && step >= 1 ? step : null;
  }

  /** Records that step `index` (0-based) of `count` of lesson `lesson` is shown: the location,
   *  and "completed" at the last step (which stays, whatever step is shown later). Another
   *  lesson's steps are not the package's. */
  showStep(lesson, index, count) {
    if (this.finished || lesson !== this.lesson) return;
    this.set('cmi.core.lesson_location', index + 1);
    if (index === count - 1 && !this.completed) {
      this.completed = this.set('cmi.core.lesson_status', 'completed');
    }
    // "suspend": the LMS keeps the location for the next attempt, which it starts as a resume.
    this.set('cmi.core.exit', this.completed ? '' : 'suspend');
    this.api.LMSCommit('');
  }

  /** Ends the session: the time spent, then LMSFinish (once). */
  finish() {
    if (this.finished) return;
    this.finished = true;
    this.set('cmi.core.session_time', sessionTime((performance.now() - this.started) / 1000));
    this.api.LMSCommit('');
    this.api.LMSFinish('');
  }
}

/** `seconds` as SCORM 1.2's CMITimespan, HHHH:MM:SS.SS. */
export function sessionTime(seconds) {
  const centis = Math.floor(seconds * 100);
  const hours = Math.floor(centis / 360000);
  const minutes = Math.floor(centis / 6000) % 60;
  const rest = ((centis % 6000) / 100).toFixed(2).padStart(5, '0');
  return `${String(hours).padStart(4, '0')}:${String(minutes).padStart(2, '0')}:${rest}`;
}
