// Notices above the panel: URL parameters the page could not use (each kept its default)
// and lesson steps the panel refused, in the reader's language.

import { errorMessage } from './i18n.js';
import { $, state, t } from './state.js';

export function renderNotices() {
  const box = $('#notices');
  const list = box.querySelector('ul');
  list.replaceChildren();
  for (const notice of state.notices) {
    const item = document.createElement('li');
    if (notice.text) {
      const [key, args] = notice.text;
      const fallback = notice.fallbackPanel ? t(`panel.${state.panel}`) : args.fallback;
      item.textContent = t(key, { ...args, fallback });
    } else if (notice.error.key) {
      item.textContent = t('notice.default', { key: notice.error.key, message: errorMessage(state.lang, notice.error) });
    } else {
      item.textContent = t('notice.whole', { message: errorMessage(state.lang, notice.error) });
    }
    list.append(item);
  }
  box.hidden = state.notices.length === 0;
}

/** Adds a notice and shows it. */
export function notify(notice) {
  state.notices.push(notice);
  renderNotices();
}
