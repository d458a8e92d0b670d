// A lesson's session with an LMS by SCORM 1.2's run-time API (scorm.js finds the LMS and loads
// this module when there is one; a bundle of its own, scorm-session.min.js): where the student
// left, whether they completed the lesson, and the time they spent.

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
