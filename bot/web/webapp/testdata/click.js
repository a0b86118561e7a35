// Dev only (served by testdata/devserver at /t/): clicks the elements named
// in the hash's "click" parameter (CSS selectors joined by "|") one by one,
// so a headless screenshot can show a modal or a toast.
'use strict';
(() => {
  const sel = new URLSearchParams(location.hash.slice(1)).get('click') || '';
  let delay = 800;
  for (const s of sel.split('|').filter(Boolean)) {
    setTimeout(() => { const e = document.querySelector(s); if (e) e.click(); }, delay);
    delay += 600;
  }
})();

// Reports what the page shows every second to the dev server's log, to
// follow a live page in a headless browser.
(() => {
  const text = (sel) => { const e = document.querySelector(sel); return e && !e.hidden ? e.textContent : ''; };
  setInterval(() => {
    fetch('/t/report', {
      method: 'POST',
      body: JSON.stringify({ status: text('.status-text'), badge: text('#badge'), toast: text('#toast'), modal: text('.modal'), enter: [...document.querySelectorAll('.card.enter')].map((e) => e.getAttribute('aria-label')) }),
    }).catch(() => {});
  }, 1000);
})();
