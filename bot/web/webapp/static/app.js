// «Стол»: the web table of the Trickchef bot, a Telegram Mini App.
//
// The page draws any game from the server's WebState (bot/web.go,
// bot/scene.go) and sends the viewer's taps back. It talks to Telegram
// through its own small bridge (no telegram.org script) and builds every
// element with createElement/textContent: all text it shows is untrusted.
// Its fixed words come from WebState.Texts, read only through t('key')
// (bot/webapp/static_test.go checks the keys against TextKeys).
'use strict';

(() => {
  // ---------------------------------------------------------------- helpers

  const SVGNS = 'http://www.w3.org/2000/svg';
  const store = {
    get(k) { try { return sessionStorage.getItem(k); } catch { return null; } },
    set(k, v) { try { sessionStorage.setItem(k, v); } catch { /* private mode */ } },
  };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null && text !== '') e.textContent = String(text);
    return e;
  }

  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    return e;
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const str = (v) => (typeof v === 'string' ? v : '');
  const arr = (v) => (Array.isArray(v) ? v : []);

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  }

  // ------------------------------------------------------------------ state

  const app = {
    initData: '',
    table: '',
    texts: {},
    state: null, // the WebState shown
    version: -1,
    offset: 0, // server clock minus the phone's (ms)
    connected: null, // unknown until the stream first opens or fails
    busy: false,
    visible: document.visibilityState !== 'hidden',
    myTurn: false,
    fatal: false,
    logOpen: false,
    cardKeys: new Set(), // cards drawn last time, to animate new ones
    timers: [], // {el, deadline}
    streamAbort: null,
    wake: null, // ends the reconnect wait early
    lastByte: 0,
    cardSeq: 0, // unique ids for SVG gradients
    fly: null, // the card just tapped in the hand: {name, rect, at}
    textFaces: false, // no colour-emoji font: emoji faces are drawn as words
    // The replay of a finished game («▶️ Повтор»), null when not open:
    // {want: the step asked for, shown: the step drawn, data: its
    // answer (web.Replay), loading: a request in flight}.
    replay: null,
    // The replay step the page was opened at (a «🔍 Разбор» moment's
    // button: ?step=N), -1 for none; used once, when the finished game's
    // state first arrives. The server checks it (api/replay).
    launchStep: -1,
    // The game that step is of (web.GameKey), '' for none: the server
    // refuses the step of a game the table no longer holds.
    launchGame: '',
    // The group's cup (api/cup, web.Cup): null when it has none to show;
    // cupOpen when the page shows it instead of the table.
    cup: null,
    cupOpen: false,
    cupAt: 0, // when it was last asked for (ms)
  };

  // t returns the page's word for key (WebState.Texts), the key itself when
  // missing so the gap is visible.
  function t(key) {
    const s = app.texts[key];
    return typeof s === 'string' && s !== '' ? s : key;
  }

  // --------------------------------------------------------- launch params

  function hashParams() {
    try { return new URLSearchParams(location.hash.replace(/^#/, '')); } catch { return new URLSearchParams(); }
  }

  function readLaunch() {
    const hp = hashParams();
    const tg = window.Telegram && window.Telegram.WebApp;
    let init = (tg && typeof tg.initData === 'string' && tg.initData) || hp.get('tgWebAppData') || '';
    if (init) store.set('tc.initData', init);
    else init = store.get('tc.initData') || '';
    app.initData = init;

    let table = new URLSearchParams(location.search).get('table') || '';
    if (!table) {
      try { table = new URLSearchParams(init).get('start_param') || ''; } catch { table = ''; }
    }
    if (!table) table = hp.get('tgWebAppStartParam') || '';
    app.table = table;
    // Only digits, as api/replay takes them; anything else is ignored.
    const q = new URLSearchParams(location.search);
    const step = q.get('step') || '';
    if (/^[0-9]{1,6}$/.test(step)) app.launchStep = Number(step);
    const game = q.get('game') || '';
    if (/^[0-9]{1,9}\.[0-9]{1,12}$/.test(game)) app.launchGame = game;

    let theme = hp.get('tgWebAppThemeParams');
    if (theme) store.set('tc.theme', theme);
    else theme = store.get('tc.theme');
    if (theme) {
      try { applyTheme(JSON.parse(theme)); } catch { /* bad JSON: keep the defaults */ }
    }
    try { app.texts = JSON.parse(store.get('tc.texts') || '{}') || {}; } catch { app.texts = {}; }
  }

  // ------------------------------------------------------------------ theme

  const themeVars = {
    bg_color: '--bg',
    text_color: '--text',
    hint_color: '--hint',
    link_color: '--link',
    button_color: '--button',
    button_text_color: '--button-text',
    secondary_bg_color: '--bg2',
    section_bg_color: '--section',
    accent_text_color: '--accent',
    destructive_text_color: '--danger',
  };
  const hexRE = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
  let themed = false;

  function rgb(hex) {
    let h = hex.slice(1);
    if (h.length === 3) h = h.split('').map((c) => c + c).join('');
    const n = parseInt(h, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  function luminance(hex) {
    const [r, g, b] = rgb(hex);
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
  }

  function applyTheme(tp) {
    if (!tp || typeof tp !== 'object') return;
    const root = document.documentElement;
    for (const [k, v] of Object.entries(themeVars)) {
      const c = tp[k];
      if (typeof c === 'string' && hexRE.test(c)) {
        root.style.setProperty(v, c);
        themed = true;
      }
    }
    if (typeof tp.bg_color === 'string' && hexRE.test(tp.bg_color)) {
      root.classList.toggle('dark', luminance(tp.bg_color) < 0.5);
    }
    root.classList.toggle('tg', themed);
  }

  function systemScheme() {
    if (themed) return;
    const mq = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)');
    document.documentElement.classList.toggle('dark', !!(mq && mq.matches));
  }

  // ----------------------------------------------------- Telegram's bridge

  function postEvent(type, data) {
    const payload = data === undefined ? '' : data;
    try {
      const proxy = window.TelegramWebviewProxy;
      if (proxy && typeof proxy.postEvent === 'function') {
        proxy.postEvent(type, JSON.stringify(payload));
      } else if (window.parent !== window) {
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData: payload }), 'https://web.telegram.org');
      }
    } catch { /* outside Telegram: nothing to tell */ }
  }

  function haptic(kind) {
    if (kind === 'tap') postEvent('web_app_trigger_haptic_feedback', { type: 'impact', impact_style: 'light' });
    else postEvent('web_app_trigger_haptic_feedback', { type: 'notification', notification_type: kind });
  }

  function onTelegram(type, data) {
    const d = data && typeof data === 'object' ? data : {};
    switch (type) {
      case 'theme_changed':
        applyTheme(d.theme_params);
        if (d.theme_params) store.set('tc.theme', JSON.stringify(d.theme_params));
        break;
      case 'viewport_changed':
        if (typeof d.height === 'number' && d.height > 0) {
          document.documentElement.style.setProperty('--vh', `${Math.round(d.height)}px`);
          layout();
        }
        break;
      case 'visibility_changed':
        setVisible(!!d.is_visible);
        break;
      default:
    }
  }

  function bridge() {
    window.Telegram = window.Telegram || {};
    window.Telegram.WebView = Object.assign(window.Telegram.WebView || {}, { receiveEvent: onTelegram });
    window.TelegramGameProxy = Object.assign(window.TelegramGameProxy || {}, { receiveEvent: onTelegram });
    window.addEventListener('message', (ev) => {
      if (window.parent === window || ev.source !== window.parent || typeof ev.data !== 'string') return;
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m && typeof m.eventType === 'string') onTelegram(m.eventType, m.eventData);
    });
    postEvent('web_app_ready');
    postEvent('web_app_expand');
    postEvent('web_app_request_theme');
    postEvent('web_app_request_viewport');
  }

  // -------------------------------------------------------------------- API

  function apiURL(path, query) {
    const u = new URL(path, location.href);
    u.search = '';
    u.hash = '';
    for (const [k, v] of Object.entries(query || {})) u.searchParams.set(k, v);
    return u.toString();
  }

  function headers(extra) {
    return Object.assign({ Authorization: `tma ${app.initData}` }, extra);
  }

  async function readError(res) {
    try {
      const j = await res.json();
      return { code: str(j.error) || String(res.status), text: str(j.text) };
    } catch {
      return { code: String(res.status), text: '' };
    }
  }

  // accept shows a state unless an older one than what is shown.
  function accept(st) {
    if (!st || typeof st !== 'object' || typeof st.version !== 'number') return;
    if (typeof st.now === 'number' && st.now > 0) app.offset = st.now - Date.now();
    if (st.version < app.version || (st.version === app.version && app.state)) return;
    // A stream sends the guide once: keep it while the game stays.
    if (!str(st.rules) && app.state && app.state.game === st.game) st.rules = app.state.rules;
    app.version = st.version;
    app.state = st;
    // A new lobby or game replaces the finished one: its replay closes.
    if (app.replay && !str(st.replay)) app.replay = null;
    if (st.texts && typeof st.texts === 'object') {
      app.texts = st.texts;
      store.set('tc.texts', JSON.stringify(st.texts));
    }
    // The cup is asked for once on opening, and again with each change
    // while it is on screen.
    if (!app.cupAt || app.cupOpen) loadCup();
    render();
    if (app.launchStep >= 0) {
      // Opened at a reviewed move: the replay at that step, once, if the
      // game is over (a step the game has not is the server's 400, shown
      // as a toast over the live table).
      const step = app.launchStep;
      app.launchStep = -1;
      if (str(st.replay) && !app.replay) openReplay(step, app.launchGame);
    }
  }

  // loadCup asks for the group's cup: shown when it has one (and at
  // once instead of an empty table), forgotten when it has none.
  async function loadCup() {
    app.cupAt = Date.now();
    let res;
    try {
      res = await fetch(apiURL('api/cup', { table: app.table }), { headers: headers(), cache: 'no-store' });
    } catch {
      return;
    }
    if (res.status === 404) {
      app.cup = null;
      app.cupOpen = false;
      render();
      return;
    }
    if (!res.ok) return;
    let c;
    try { c = await res.json(); } catch { return; }
    if (!c || typeof c !== 'object' || !Array.isArray(c.tables)) return;
    const first = !app.cup;
    app.cup = c;
    const sc = app.state && app.state.scene;
    if (first && !sc) app.cupOpen = true;
    render();
  }

  function openCup() {
    app.cupOpen = true;
    render();
    window.scrollTo(0, 0);
    loadCup();
  }

  function closeCup() {
    app.cupOpen = false;
    render();
  }

  // loadState asks for the state once: true when shown, false on a network
  // failure; a refusal (4xx) stops the page with the server's words.
  async function loadState() {
    let res;
    try {
      res = await fetch(apiURL('api/state', { table: app.table }), { headers: headers(), cache: 'no-store' });
    } catch {
      return false;
    }
    if (!res.ok) {
      const e = await readError(res);
      if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        fatal(e.text, res.status);
        return true;
      }
      return false;
    }
    try { accept(await res.json()); } catch { return false; }
    return true;
  }

  // stream follows the table's events; it reconnects with backoff and asks
  // only for what changed after the version shown.
  async function stream() {
    let delay = 500;
    while (!app.fatal) {
      const ctrl = new AbortController();
      app.streamAbort = ctrl;
      app.lastByte = Date.now();
      try {
        const h = headers({ Accept: 'text/event-stream' });
        if (app.version >= 0) h['Last-Event-ID'] = String(app.version);
        const res = await fetch(apiURL('api/events', { table: app.table }), { headers: h, cache: 'no-store', signal: ctrl.signal });
        if (!res.ok || !res.body) {
          const e = await readError(res);
          if (res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408) {
            fatal(e.text, res.status);
            return;
          }
          throw new Error(`events: ${res.status}`);
        }
        app.lastByte = Date.now();
        setConnected(true);
        await readEvents(res.body, () => {
          app.lastByte = Date.now();
          delay = 500;
        });
      } catch { /* dropped: reconnect below */ }
      app.streamAbort = null;
      setConnected(false);
      if (app.fatal) return;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delay);
        app.wake = () => { clearTimeout(timer); resolve(); };
      });
      app.wake = null;
      delay = Math.min(delay * 2, 10000);
    }
  }

  // readEvents parses a text/event-stream body and shows each state.
  async function readEvents(body, onBytes) {
    const reader = body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    let data = [];
    let name = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onBytes();
      buf += dec.decode(value, { stream: true });
      for (;;) {
        const i = buf.search(/[\r\n]/);
        if (i < 0 || (buf[i] === '\r' && i === buf.length - 1)) break;
        const line = buf.slice(0, i);
        buf = buf.slice(i + (buf[i] === '\r' && buf[i + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (data.length && (name === 'state' || name === '')) {
            try { accept(JSON.parse(data.join('\n'))); } catch { /* a bad event: wait for the next */ }
          }
          if (name === 'closed') {
            // The viewer may watch no more (they left the group): the
            // table goes, the server's words stay, nothing reconnects.
            let text = '';
            try { text = str(JSON.parse(data.join('\n')).text); } catch { /* the lock says it */ }
            closed(text);
            return;
          }
          data = [];
          name = '';
          continue;
        }
        if (line[0] === ':') continue;
        const c = line.indexOf(':');
        const field = c < 0 ? line : line.slice(0, c);
        let v = c < 0 ? '' : line.slice(c + 1);
        if (v[0] === ' ') v = v.slice(1);
        if (field === 'data') data.push(v);
        else if (field === 'event') name = v;
      }
    }
  }

  // watchdog drops a stream that went silent, or a request that never
  // got an answer: the server pings well within this time.
  function watchdog() {
    if (app.streamAbort && Date.now() - app.lastByte > 45000) app.streamAbort.abort();
  }

  function reconnectNow() {
    if (app.wake) app.wake();
  }

  let badgeTimer = 0;
  function setConnected(on) {
    if (app.connected === on) return;
    app.connected = on;
    const badge = document.getElementById('badge');
    clearTimeout(badgeTimer);
    if (on) {
      badge.hidden = true;
      return;
    }
    // A quick reconnect goes unnoticed: the badge waits a moment.
    badgeTimer = setTimeout(() => {
      if (app.connected || app.fatal || !app.state) return;
      badge.textContent = t('reconnecting');
      badge.hidden = false;
    }, 1500);
  }

  async function act(data, source) {
    if (app.busy || !data) return;
    app.busy = true;
    document.body.classList.add('busy');
    if (source) source.classList.add('pending');
    haptic('tap');
    // A card tapped in the hand flies from there to the table when the
    // state that shows it played arrives.
    const face = source && source.closest('.hand') && source.querySelector('.face');
    app.fly = face ? { name: source.title, rect: face.getBoundingClientRect(), at: Date.now() } : null;
    const key = newKey();
    const body = JSON.stringify({ table: app.table, act: data, key });
    let reply = null;
    let refusal = '';
    for (let attempt = 0; attempt <= 3 && !reply && !refusal; attempt++) {
      if (attempt > 0) await sleep(400 * attempt);
      try {
        const res = await fetch(apiURL('api/act'), {
          method: 'POST',
          headers: headers({ 'Content-Type': 'application/json' }),
          body,
          cache: 'no-store',
        });
        if (res.ok) {
          reply = await res.json();
        } else if (res.status < 500) {
          refusal = (await readError(res)).text || t('offline');
        }
      } catch { /* network: retry with the same key */ }
    }
    app.busy = false;
    document.body.classList.remove('busy');
    if (source) source.classList.remove('pending');
    if (reply && typeof reply === 'object') {
      const text = str(reply.text);
      if (text) {
        if (reply.alert) showAlert(text);
        else toast(text);
      }
      if (!reply.ok) haptic('error');
    } else {
      toast(refusal || t('offline'));
      haptic('error');
    }
    if (!app.connected) loadState();
  }

  function sendSeen(visible) {
    if (!app.table || app.fatal) return;
    try {
      fetch(apiURL('api/seen'), {
        method: 'POST',
        headers: headers({ 'Content-Type': 'application/json' }),
        body: JSON.stringify({ table: app.table, visible }),
        keepalive: true,
      }).catch(() => {});
    } catch { /* best effort */ }
  }

  function setVisible(v) {
    if (app.visible === v) return;
    app.visible = v;
    sendSeen(v);
    if (v) reconnectNow();
  }

  // ------------------------------------------------------------------ cards

  const EMOJI_FONT = "'Trickchef Faces', system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Helvetica Neue', Arial, " +
    "'Apple Color Emoji', 'Segoe UI Emoji', 'Noto Color Emoji', sans-serif";

  function mix(c, to, k) {
    return `rgb(${c.map((v, i) => Math.round(v + (to[i] - v) * k)).join(',')})`;
  }

  // graphemes counts what the eye sees as characters: an emoji joined
  // from several code points («👨‍🍳») is one.
  function graphemes(s) {
    if (window.Intl && Intl.Segmenter) return [...new Intl.Segmenter().segment(s)].length;
    return [...s.replace(/\u200d\p{Extended_Pictographic}|[\ufe0f\u{1f3fb}-\u{1f3ff}]/gu, '')].length;
  }

  function faceSize(face, small) {
    const n = graphemes(face);
    if (small) return n <= 1 ? 62 : n === 2 ? 50 : 34;
    return n <= 1 ? 60 : n === 2 ? 50 : n === 3 ? 36 : 26;
  }

  // colourEmoji reports whether this device draws emoji in colour: a fresh
  // desktop Linux may have no such font, and an emoji face would be a
  // blank box. It draws one on a canvas and looks for coloured pixels.
  function colourEmoji() {
    try {
      const c = document.createElement('canvas');
      c.width = 24;
      c.height = 24;
      const x = c.getContext('2d', { willReadFrequently: true });
      x.font = `20px ${EMOJI_FONT}`;
      x.textBaseline = 'top';
      x.fillStyle = '#000000';
      x.fillText('🍅', 0, 0);
      const d = x.getImageData(0, 0, 24, 24).data;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] > 128 && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) return true;
      }
    } catch { /* no canvas: assume a phone, which has the font */ return true; }
    return false;
  }

  // SHAPES are the suits the page draws itself (bot.Card.Suit), in the
  // order a hand is sorted by: no font is needed to tell them apart.
  const SHAPES = ['circle', 'triangle', 'diamond', 'square', 'star', 'cross'];

  // shapeEl draws a suit's shape of radius r centred at (x, y).
  function shapeEl(shape, x, y, r, fill, stroke) {
    const paint = { fill, stroke, 'stroke-width': Math.max(1, r / 7), 'stroke-linejoin': 'round' };
    const pts = (list) => list.map(([px, py]) => `${(x + px * r).toFixed(2)},${(y + py * r).toFixed(2)}`).join(' ');
    switch (shape) {
      case 'circle':
        return svgEl('circle', Object.assign({ cx: x, cy: y, r: r * 0.86 }, paint));
      case 'triangle':
        return svgEl('polygon', Object.assign({ points: pts([[0, -1], [0.98, 0.76], [-0.98, 0.76]]) }, paint));
      case 'diamond':
        return svgEl('polygon', Object.assign({ points: pts([[0, -1.08], [0.78, 0], [0, 1.08], [-0.78, 0]]) }, paint));
      case 'square':
        return svgEl('rect', Object.assign({ x: x - r * 0.78, y: y - r * 0.78, width: r * 1.56, height: r * 1.56, rx: r * 0.14 }, paint));
      case 'star': {
        const list = [];
        for (let i = 0; i < 10; i++) {
          const a = -Math.PI / 2 + (i * Math.PI) / 5;
          const k = i % 2 ? 0.45 : 1.05;
          list.push([k * Math.cos(a), k * Math.sin(a)]);
        }
        return svgEl('polygon', Object.assign({ points: pts(list) }, paint));
      }
      default: // cross
        return svgEl('polygon', Object.assign({
          points: pts([[-0.3, -0.95], [0.3, -0.95], [0.3, -0.3], [0.95, -0.3], [0.95, 0.3], [0.3, 0.3], [0.3, 0.95],
            [-0.3, 0.95], [-0.3, 0.3], [-0.95, 0.3], [-0.95, -0.3], [-0.3, -0.3]]),
        }, paint));
    }
  }

  // sortHand orders a hand by suit and value when every card has both (a
  // suit shape and a number); other hands keep the game's order.
  function sortHand(cards) {
    const num = (c) => (/^\d+$/.test(str(c.face)) ? Number(c.face) : NaN);
    if (cards.length < 2 || !cards.every((c) => c && SHAPES.includes(str(c.suit)) && !Number.isNaN(num(c)))) return cards;
    return cards.slice().sort((a, b) => SHAPES.indexOf(a.suit) - SHAPES.indexOf(b.suit) || num(a) - num(b));
  }

  // cardSVG draws a card, or clones the same card drawn before: a state
  // redraws every card on the table, and most of them are the same.
  const drawnCards = new Map();
  function cardSVG(c, small) {
    const key = [small ? 1 : 0, c.back ? 1 : 0, str(c.face), str(c.corner), str(c.color), str(c.suit)].join('|');
    let s = drawnCards.get(key);
    if (!s) {
      s = drawCardSVG(c, small);
      if (drawnCards.size > 500) drawnCards.clear();
      drawnCards.set(key, s);
    }
    return s.cloneNode(true);
  }

  function drawCardSVG(c, small) {
    const id = `c${++app.cardSeq}`;
    const s = svgEl('svg', { viewBox: '0 0 100 146', 'aria-hidden': 'true', focusable: 'false' });
    const defs = svgEl('defs');
    s.append(defs);
    if (c.back) {
      const g = svgEl('linearGradient', { id: `${id}g`, x1: 0, y1: 0, x2: 1, y2: 1 });
      g.append(svgEl('stop', { offset: 0, 'stop-color': '#3d56a8' }), svgEl('stop', { offset: 1, 'stop-color': '#1d2a5e' }));
      const p = svgEl('pattern', { id: `${id}p`, width: 9, height: 9, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
      p.append(svgEl('rect', { width: 4.5, height: 9, fill: '#ffffff', 'fill-opacity': 0.11 }));
      defs.append(g, p);
      s.append(
        svgEl('rect', { x: 1, y: 1, width: 98, height: 144, rx: 10, fill: `url(#${id}g)`, stroke: '#0b1230', 'stroke-opacity': 0.5, 'stroke-width': 1.5 }),
        svgEl('rect', { x: 8, y: 8, width: 84, height: 130, rx: 6, fill: `url(#${id}p)`, stroke: '#ffffff', 'stroke-opacity': 0.45, 'stroke-width': 1.5 }),
        svgEl('path', { d: 'M50 52 L66 73 L50 94 L34 73 Z', fill: '#ffffff', 'fill-opacity': 0.22, stroke: '#ffffff', 'stroke-opacity': 0.5, 'stroke-width': 1.5 }),
      );
      return s;
    }
    const color = hexRE.test(str(c.color)) ? c.color : '';
    const base = color ? rgb(color) : [246, 244, 238];
    const ink = color && luminance(color) < 0.62 ? '#ffffff' : '#1f2329';
    const g = svgEl('linearGradient', { id: `${id}g`, x1: 0, y1: 0, x2: 0.6, y2: 1 });
    g.append(
      svgEl('stop', { offset: 0, 'stop-color': mix(base, [255, 255, 255], 0.28) }),
      svgEl('stop', { offset: 0.55, 'stop-color': mix(base, [255, 255, 255], 0) }),
      svgEl('stop', { offset: 1, 'stop-color': mix(base, [0, 0, 0], 0.18) }),
    );
    defs.append(g);
    s.append(
      svgEl('rect', { x: 1, y: 1, width: 98, height: 144, rx: 10, fill: `url(#${id}g)`, stroke: '#000000', 'stroke-opacity': 0.22, 'stroke-width': 1.5 }),
      svgEl('rect', { x: 5.5, y: 5.5, width: 89, height: 135, rx: 7, fill: 'none', stroke: '#ffffff', 'stroke-opacity': color ? 0.35 : 0.9, 'stroke-width': 1.5 }),
    );
    const face = str(c.face);
    const suit = SHAPES.includes(str(c.suit)) ? c.suit : '';
    if (suit) {
      // The value in the middle with its suit's shape under it, and in
      // both corners the value over the shape: a fanned hand shows them.
      const text = (x, y, size, value) => {
        const e = svgEl('text', {
          x, y, 'font-size': size, 'font-family': EMOJI_FONT, 'font-weight': 800, fill: ink,
          'text-anchor': 'middle', 'dominant-baseline': 'central',
        });
        e.textContent = value;
        return e;
      };
      const line = ink === '#ffffff' ? '#1f2329' : '#ffffff';
      if (small) {
        s.append(text(50, 56, faceSize(face, true) * 0.9, face), shapeEl(suit, 50, 112, 17, ink, line));
      } else {
        s.append(text(50, 66, faceSize(face, false), face), shapeEl(suit, 50, 108, 11, ink, line));
        for (const turn of [0, 180]) {
          const g = svgEl('g', { transform: `rotate(${turn} 50 73)` });
          g.append(text(17, 19, graphemes(face) > 1 ? 15 : 18, face), shapeEl(suit, 17, 38, 6.5, ink, line));
          s.append(g);
        }
      }
      s.append(svgEl('rect', { class: 'veil', x: 1, y: 1, width: 98, height: 144, rx: 10 }));
      return s;
    }
    const corner = str(c.corner) || face;
    const text = (x, y, size, value, extra) => {
      const e = svgEl('text', Object.assign({
        x, y, 'font-size': size, 'font-family': EMOJI_FONT, 'font-weight': 800, fill: ink,
        'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, extra || {}));
      e.textContent = value;
      return e;
    };
    const pictured = (v) => /\p{Extended_Pictographic}/u.test(v);
    if (app.textFaces && pictured(face)) {
      // No colour-emoji font here: the card says what it is in words.
      const words = str(c.name).split(/\s+/).filter(Boolean);
      const lines = [];
      for (const w of words) {
        const last = lines[lines.length - 1];
        if (last && (last + ' ' + w).length <= 9) lines[lines.length - 1] = `${last} ${w}`;
        else lines.push(w);
      }
      const longest = Math.max(...lines.map((l) => l.length));
      const size = small ? (longest > 4 ? 22 : 30) : longest > 7 ? 15 : 18;
      const top = 73 - ((lines.length - 1) * size * 1.15) / 2;
      lines.slice(0, 4).forEach((l, i) => s.append(text(50, top + i * size * 1.15, size, l, { 'font-weight': 700 })));
    } else if (face) {
      s.append(text(50, small ? 73 : 75, faceSize(face, small), face));
    }
    if (corner && !small && !(app.textFaces && pictured(corner))) {
      // The corner mark sits on a light badge: a suit drawn as a square
      // of the card's own colour stays visible.
      const cs = graphemes(corner) > 2 ? 11 : 15;
      for (const turn of [0, 180]) {
        const g = svgEl('g', { transform: `rotate(${turn} 50 73)` });
        if (color) g.append(svgEl('rect', { x: 7, y: 7, width: 22, height: 22, rx: 6, fill: '#ffffff', 'fill-opacity': 0.92 }));
        g.append(text(18, 18.5, cs, corner, color ? { fill: '#1f2329' } : {}));
        s.append(g);
      }
    }
    s.append(svgEl('rect', { class: 'veil', x: 1, y: 1, width: 98, height: 144, rx: 10 }));
    return s;
  }

  // cardKeys names the cards of a row so that the same card keeps its
  // name when others come or go (only new ones are animated): where, what,
  // and which of equal cards.
  function cardKeys(where, cards) {
    const seen = new Map();
    return cards.map((c) => {
      const k = `${where}:${c && c.back ? '#' : str(c && c.name)}`;
      const n = (seen.get(k) || 0) + 1;
      seen.set(k, n);
      return `${k}:${n}`;
    });
  }

  // cardEl is one card with its note; a card with Act is a button.
  function cardEl(c, size, key, fresh) {
    const tappable = size === 'lg' && !!str(c.act);
    const e = el(tappable ? 'button' : 'div', `card ${size}`);
    if (tappable) {
      e.type = 'button';
      e.dataset.act = c.act;
      e.addEventListener('click', () => act(c.act, e));
    } else {
      e.setAttribute('role', 'img');
    }
    const name = str(c.name);
    e.setAttribute('aria-label', c.note ? `${name} (${c.note})` : name);
    if (name) e.title = name;
    if (c.dim) e.classList.add('dim');
    if (c.selected) e.classList.add('selected');
    if (c.hinted) e.classList.add('hinted');
    if (c.back) e.classList.add('back');
    const face = el('span', 'face');
    face.append(cardSVG(c, size === 'sm'));
    e.append(face);
    if (size !== 'sm' && str(c.note)) e.append(el('span', 'note', c.note));
    if (fresh.has(key) === false && app.cardKeys.size > 0 && !app.cardKeys.has(key)) e.classList.add('enter');
    fresh.add(key);
    return e;
  }

  // ------------------------------------------------------------------ modal

  function modal(title, build) {
    const back = el('div', 'backdrop');
    const box = el('div', 'modal');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    const close = () => {
      back.remove();
      document.removeEventListener('keydown', onKey);
    };
    const onKey = (ev) => { if (ev.key === 'Escape') close(); };
    back.addEventListener('click', (ev) => { if (ev.target === back) close(); });
    document.addEventListener('keydown', onKey);
    if (title) {
      const head = el('div', 'modal-head');
      head.append(el('h2', '', title));
      const x = el('button', 'icon', '✕');
      x.type = 'button';
      x.setAttribute('aria-label', t('close'));
      x.addEventListener('click', close);
      head.append(x);
      box.append(head);
    }
    build(box, close);
    back.append(box);
    document.body.append(back);
    const focus = title ? box : box.querySelector('button');
    if (title) box.tabIndex = -1;
    if (focus) focus.focus();
  }

  function showAlert(text) {
    modal('', (box, close) => {
      box.classList.add('alert');
      box.append(el('p', 'alert-text', text));
      const ok = el('button', 'primary', app.state ? t('ok') : 'OK');
      ok.type = 'button';
      ok.addEventListener('click', close);
      box.append(ok);
    });
  }

  function showCards(name, cards) {
    modal(name, (box) => {
      box.classList.add('sheet');
      const row = el('div', 'big-cards');
      for (const c of cards) row.append(cardEl(Object.assign({}, c, { act: '' }), 'lg', '', new Set()));
      box.append(row);
    });
  }

  function showRules() {
    const rules = str(app.state && app.state.rules);
    modal(t('rules'), (box) => {
      box.classList.add('sheet');
      const body = el('div', 'rules');
      rules.split(/\n-{3,}\n/).forEach((page, i) => {
        if (i > 0) body.append(el('hr'));
        for (const para of page.split(/\n{2,}/)) body.append(el('p', '', para));
      });
      box.append(body);
    });
  }

  let toastTimer = 0;
  function toast(text) {
    const e = document.getElementById('toast');
    e.textContent = text;
    e.hidden = false;
    e.classList.remove('show');
    void e.offsetWidth; // restart the animation
    e.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { e.hidden = true; }, Math.min(6000, 1800 + 55 * text.length));
  }

  // ----------------------------------------------------------------- render

  // closed takes the table off the page for good: its viewer may no longer
  // see it.
  function closed(text) {
    app.state = null;
    app.replay = null;
    fatal(text, 403);
  }

  function fatal(text, status) {
    app.fatal = true;
    if (app.streamAbort) app.streamAbort.abort();
    document.getElementById('badge').hidden = true;
    const msg = text || (app.state ? t('offline') : '⚠️');
    if (app.state) {
      const bar = el('div', 'fatal-bar', msg);
      bar.setAttribute('role', 'alert');
      document.body.prepend(bar);
      haptic('error');
      return;
    }
    const root = document.getElementById('app');
    const box = el('div', 'empty');
    const icon = status === 401 || status === 403 ? '🔒' : status === 404 ? '🃏' : '⚠️';
    box.append(el('div', 'empty-icon', icon), el('p', 'empty-title', msg));
    root.replaceChildren(box);
  }

  function header(st, sc, replaying) {
    const h = el('header', 'head');
    const top = el('div', 'head-top');
    const names = el('div', 'head-names');
    if (str(st.title)) names.append(el('h1', 'title', st.title));
    if (str(st.chat)) names.append(el('div', 'chat', st.chat));
    top.append(names);
    if (replaying) {
      // Back to the final table and its standings.
      const b = el('button', 'pill replay-back', t('replay_back'));
      b.type = 'button';
      b.addEventListener('click', closeReplay);
      top.append(b);
    } else {
      const pills = el('div', 'head-pills');
      if (app.cup) {
        const b = el('button', 'pill cup-open', t('cup'));
        b.type = 'button';
        b.addEventListener('click', openCup);
        pills.append(b);
      }
      if (str(st.rules)) {
        const b = el('button', 'pill', t('rules'));
        b.type = 'button';
        b.addEventListener('click', showRules);
        pills.append(b);
      }
      if (pills.childElementCount) top.append(pills);
    }
    h.append(top);
    if (sc) {
      const status = el('div', 'status');
      // The game's headline names whoever moves; when that is the viewer,
      // the page says it to them.
      if (app.myTurn) status.append(el('span', 'your-turn', t('your_turn')));
      else status.append(el('span', 'status-text', str(sc.status)));
      h.append(status);
      const info = arr(sc.info).filter((x) => typeof x === 'string' && x);
      if (info.length) {
        const row = el('div', 'info');
        for (const line of info) row.append(el('span', 'chip', line));
        h.append(row);
      }
    }
    return h;
  }

  function mark(text, label, cls) {
    const m = el('span', cls ? `mark ${cls}` : 'mark', text);
    m.title = label;
    m.setAttribute('aria-label', label);
    m.setAttribute('role', 'img');
    return m;
  }

  // seatEl is one seat on the oval; bare leaves its cards out (the
  // replay lists them below the table).
  function seatEl(s, index, fresh, bare) {
    const e = el('div', 'seat');
    for (const k of ['you', 'turn', 'out', 'leader', 'away', 'robot']) if (s[k]) e.classList.add(k);
    if (s.leader) e.append(mark('👑', t('leader'), 'crown'));
    if (s.robot || s.away) {
      const who = el('span', 'badges');
      if (s.robot) who.append(mark('🤖', t('robot')));
      if (s.away) who.append(mark('💤', t('away')));
      e.append(who);
    }
    e.append(el('div', 'seat-name', str(s.name)));
    const tags = [];
    if (s.you) tags.push(t('you'));
    if (s.out) tags.push(t('out'));
    const stats = arr(s.stats).filter((x) => typeof x === 'string' && x);
    if (stats.length || tags.length) {
      const row = el('div', 'seat-stats');
      for (const tag of tags) row.append(el('span', 'tag', tag));
      for (const x of stats) row.append(el('span', 'stat', x));
      e.append(row);
    }
    const cards = bare ? [] : arr(s.cards);
    if (cards.length) {
      // A tap shows the seat's cards large: in some games the others'
      // cards are what one reads.
      const row = el('button', 'seat-cards');
      row.type = 'button';
      row.setAttribute('aria-label', `${t('enlarge')}: ${str(s.name)}`);
      row.addEventListener('click', () => showCards(str(s.name), cards));
      const shown = cards.slice(0, 6);
      const keys = cardKeys(`s${index}`, shown);
      shown.forEach((c, j) => row.append(cardEl(c, 'sm', keys[j], fresh)));
      if (cards.length > shown.length) row.append(el('span', 'more', `+${cards.length - shown.length}`));
      e.append(row);
    }
    if (typeof s.deadline === 'number' && s.deadline > 0) {
      const tm = el('div', 'timer');
      app.timers.push({ el: tm, deadline: s.deadline });
      e.append(tm);
    }
    if (s.turn) e.setAttribute('aria-current', 'true');
    e.setAttribute('aria-label', [str(s.name), ...tags, s.turn ? t('turn') : ''].filter(Boolean).join(', '));
    return e;
  }

  function tableEl(st, sc, fresh, bare) {
    const seats = arr(sc.seats);
    const n = seats.length;
    const box = el('section', `table n${Math.min(Math.max(n, 2), 8)}`);
    box.append(el('div', 'felt'));
    const center = el('div', 'center');
    arr(sc.center).forEach((p, i) => {
      const pile = el('div', 'pile');
      if (typeof p.taker === 'number') pile.dataset.taker = String(p.taker);
      if (str(p.label)) pile.append(el('div', 'pile-label', p.label));
      const row = el('div', 'pile-cards');
      const keys = cardKeys(`p${i}`, arr(p.cards));
      arr(p.cards).forEach((c, j) => row.append(cardEl(c, 'md', keys[j], fresh)));
      pile.append(row);
      center.append(pile);
    });
    box.append(center);
    // The viewer's seat sits at the bottom; the others follow clockwise.
    const me = typeof st.seat === 'number' && st.seat >= 0 && st.seat < n ? st.seat : 0;
    seats.forEach((s, i) => {
      const e = seatEl(s, i, fresh, bare);
      const k = (i - me + n) % n;
      e.dataset.angle = String(90 + (k * 360) / n);
      box.append(e);
    });
    return box;
  }

  function handEl(sc, fresh) {
    const wrap = el('section', 'hand-area');
    if (arr(sc.hand).length || arr(sc.choices).length) wrap.classList.add('has');
    if (str(sc.prompt)) wrap.append(el('div', app.myTurn ? 'prompt mine' : 'prompt', sc.prompt));
    if (str(sc.hint)) wrap.append(el('div', 'hint-line', sc.hint));
    const hand = sortHand(arr(sc.hand));
    if (hand.length) {
      if (str(sc.hand_label)) wrap.append(el('div', 'hand-label', sc.hand_label));
      const row = el('div', 'hand');
      const keys = cardKeys('h', hand);
      hand.forEach((c, i) => row.append(cardEl(c, 'lg', keys[i], fresh)));
      wrap.append(row);
    }
    const choices = arr(sc.choices).filter((c) => c && str(c.text));
    if (choices.length) {
      const rows = new Map();
      for (const c of choices) {
        const r = typeof c.row === 'number' ? c.row : 0;
        if (!rows.has(r)) rows.set(r, []);
        rows.get(r).push(c);
      }
      const box = el('div', 'choices');
      for (const group of rows.values()) {
        const row = el('div', 'choice-row');
        for (const c of group) {
          const b = el('button', `choice${c.selected ? ' selected' : ''}${c.hinted ? ' hinted' : ''}`, c.text);
          b.type = 'button';
          if (c.selected) b.setAttribute('aria-pressed', 'true');
          if (str(c.act)) {
            b.dataset.act = c.act;
            b.addEventListener('click', () => act(c.act, b));
          }
          else b.disabled = true;
          row.append(b);
        }
        box.append(row);
      }
      wrap.append(box);
    }
    return wrap;
  }

  function logEl(sc) {
    const lines = arr(sc.log).filter((x) => typeof x === 'string' && x);
    if (!lines.length) return null;
    const d = el('details', 'log');
    d.open = app.logOpen;
    d.addEventListener('toggle', () => { app.logOpen = d.open; });
    const sum = el('summary');
    sum.append(el('span', 'log-title', t('log')), el('span', 'log-last', lines[lines.length - 1]));
    d.append(sum);
    const ol = el('ol');
    for (const line of lines) ol.append(el('li', '', line));
    d.append(ol);
    return d;
  }

  function render() {
    const st = app.state;
    if (!st) return;
    const sc = st.scene && typeof st.scene === 'object' ? st.scene : null;
    const wasMyTurn = app.myTurn;
    // A game where everyone acts at once has no turns to announce.
    app.myTurn = !!(sc && !st.over && !st.live && arr(sc.seats).some((s) => s && s.you && s.turn));
    if (app.myTurn && !wasMyTurn && app.cardKeys.size > 0) haptic('success');

    document.documentElement.lang = str(st.lang) || 'ru';
    document.title = [str(st.title), str(st.chat)].filter(Boolean).join(' · ') || '🃏';
    const root = document.getElementById('app');
    root.dataset.version = String(st.version);
    if (app.replay && app.replay.data) {
      renderReplay(st, app.replay.data, root);
      return;
    }
    delete root.dataset.replay;
    if (app.cupOpen && app.cup) {
      renderCup(st, app.cup, root);
      return;
    }
    delete root.dataset.cup;
    const handScroll = root.querySelector('.hand');
    const scrollX = handScroll ? handScroll.scrollLeft : 0;
    app.timers = [];
    const fresh = new Set();
    const parts = [header(st, sc)];
    // Where the cards on the table lay before this state: a trick that
    // leaves the table travels from there to its taker.
    const before = new Map();
    for (const c of root.querySelectorAll('.center .pile:not([data-taker]) .card')) {
      const f = c.querySelector('.face');
      if (f && c.title) before.set(c.title, { rect: f.getBoundingClientRect(), svg: f.firstChild });
    }

    if (!sc) {
      const box = el('div', 'empty');
      box.append(el('div', 'empty-icon', st.phase === 'lobby' ? '⏳' : '🃏'));
      box.append(el('p', 'empty-title', st.phase === 'lobby' ? t('lobby') : t('no_game')));
      if (st.phase !== 'lobby') box.append(el('p', 'empty-hint', t('no_game_hint')));
      parts.push(box);
    } else {
      parts.push(tableEl(st, sc, fresh));
      if (st.over) {
        const over = el('section', 'over');
        over.append(el('div', 'over-title', `🏁 ${t('over')}`));
        const rows = arr(st.standings).filter((x) => x && typeof x === 'object');
        if (rows.length) {
          // The places, best first, each with its seat's breakdown.
          const list = el('ol', 'standings');
          for (const r of rows) {
            const li = el('li', r.you ? 'you' : '');
            li.append(el('span', 'place', `${Number(r.place) || ''}`), el('span', 'who', str(r.name)),
              el('span', 'score', `${Number(r.score) || 0}`));
            const detail = arr(r.detail).filter((x) => typeof x === 'string' && x);
            if (detail.length) li.append(el('span', 'detail', detail.join(' · ')));
            if (str(r.rating)) li.append(el('span', 'rating', r.rating));
            list.append(li);
          }
          over.append(list);
        }
        const buttons = el('div', 'over-buttons');
        if (str(st.replay)) {
          const b = el('button', 'secondary replay-open', st.replay);
          b.type = 'button';
          b.addEventListener('click', () => openReplay(0));
          buttons.append(b);
        }
        if (str(st.again)) {
          const b = el('button', 'primary', t('again'));
          b.type = 'button';
          b.addEventListener('click', () => act(st.again, b));
          buttons.append(b);
        }
        if (buttons.childElementCount) over.append(buttons);
        parts.push(over);
      }
      if (st.seat === -1 && !st.over && st.phase === 'playing') parts.push(el('div', 'spectator', `👀 ${t('spectator')}`));
      parts.push(handEl(sc, fresh));
      const log = logEl(sc);
      if (log) parts.push(log);
    }
    root.replaceChildren(...parts);
    // What the page shows and when it drew it: tests and measurements
    // read these, and they tell a bug report which state was on screen.
    root.dataset.version = String(st.version);
    root.dataset.drawn = String(Date.now());
    app.cardKeys = fresh.size ? fresh : new Set(['-']);
    const hand = root.querySelector('.hand');
    if (hand) hand.scrollLeft = scrollX;
    tick(); // before layout: a countdown's text sets its seat's height
    layout();
    flyIn(root);
    toTaker(root, sc, before);
    // The hand area stays at the bottom of the screen (sticky); when the
    // turn comes, it is also brought into view if the page was scrolled
    // so far that it sits elsewhere.
    if (app.myTurn && !wasMyTurn) {
      const area = root.querySelector('.hand-area');
      if (area && area.getBoundingClientRect().bottom > window.innerHeight) area.scrollIntoView({ block: 'end' });
    }
  }

  // tableURL is the page of another table (the same initData, kept in
  // the fragment and in sessionStorage).
  function tableURL(token) {
    const u = new URL(location.href);
    u.search = '';
    u.searchParams.set('table', token);
    return u.toString();
  }

  // renderCup draws the group's cup instead of the table: the round, its
  // tables (each a link to its page) and the standings.
  function renderCup(st, c, root) {
    app.timers = [];
    root.dataset.cup = str(c.phase) || 'playing';
    const h = el('header', 'head');
    const top = el('div', 'head-top');
    const names = el('div', 'head-names');
    names.append(el('h1', 'title', str(c.title)));
    if (str(c.chat)) names.append(el('div', 'chat', c.chat));
    top.append(names);
    if (st.scene) {
      const b = el('button', 'pill cup-back', t('cup_back'));
      b.type = 'button';
      b.addEventListener('click', closeCup);
      top.append(b);
    }
    h.append(top);
    const status = el('div', 'status');
    if (str(c.round)) status.append(el('span', 'status-text', c.round));
    if (str(c.note)) status.append(el('span', 'chip', c.note));
    h.append(status);
    const parts = [h];

    const tables = el('section', 'cup-tables');
    tables.append(el('h2', 'cup-h', t('cup_tables')));
    const list = el('div', 'cup-list');
    for (const ct of arr(c.tables).filter((x) => x && typeof x === 'object')) {
      // Each table opens its page; the one this page shows goes back to it.
      const back = ct.here && !!st.scene;
      const link = !ct.here && !!str(ct.token);
      const box = el(link ? 'a' : back ? 'button' : 'div', 'cup-table');
      if (ct.here) box.classList.add('here');
      if (ct.you) box.classList.add('you');
      if (link) box.href = tableURL(ct.token);
      if (back) {
        box.type = 'button';
        box.addEventListener('click', closeCup);
      }
      if (link || back) box.setAttribute('aria-label', `${t('cup_open')}: ${str(ct.name)}`);
      const head = el('div', 'cup-table-head');
      head.append(el('span', 'cup-table-name', str(ct.name)));
      // A table of a stopped cup that never finished says neither.
      const played = arr(ct.seats).some((x) => x && typeof x.place === 'number' && x.place > 0);
      if (ct.playing || played) head.append(el('span', ct.playing ? 'chip playing' : 'chip played', ct.playing ? t('cup_playing') : t('cup_played')));
      if (ct.here) head.append(el('span', 'chip here', t('cup_here')));
      box.append(head);
      const seats = el('ul', 'cup-seats');
      for (const s of arr(ct.seats).filter((x) => x && typeof x === 'object')) {
        const li = el('li', s.you ? 'you' : '');
        if (typeof s.place === 'number' && s.place > 0) li.append(el('span', 'cup-seat-place', `${s.place}.`));
        li.append(el('span', 'cup-seat-name', str(s.name)));
        if (s.you) li.append(el('span', 'tag', t('you')));
        seats.append(li);
      }
      box.append(seats);
      if (link || back) box.append(el('span', 'cup-go', '›'));
      list.append(box);
    }
    tables.append(list);
    if (str(c.bye)) tables.append(el('p', 'cup-bye', c.bye));
    parts.push(tables);

    const rows = arr(c.standings).filter((x) => x && typeof x === 'object');
    const board = el('section', 'cup-standings');
    board.append(el('h2', 'cup-h', t('cup_standings')));
    const ol = el('ol', 'cup-board');
    const head = el('li', 'cup-row cup-row-head');
    head.append(el('span', 'place', '#'), el('span', 'who', t('cup_name')), el('span', 'pts', t('cup_points')), el('span', 'games', t('cup_games')));
    head.setAttribute('aria-hidden', 'true');
    ol.append(head);
    for (const r of rows) {
      const li = el('li', r.you ? 'cup-row you' : 'cup-row');
      const who = el('span', 'who');
      if (r.winner) who.append(mark('🏆', t('cup_winner'), 'crown'));
      who.append(el('span', 'cup-name', str(r.name)));
      if (r.left) who.append(el('span', 'tag', t('cup_left')));
      li.append(el('span', 'place', `${Number(r.place) || ''}`), who, el('span', 'pts', str(r.points)), el('span', 'games', `${Number(r.games) || 0}`));
      li.setAttribute('aria-label', [`${t('cup_place')} ${Number(r.place) || ''}`, str(r.name), `${t('cup_points')}: ${str(r.points)}`, `${t('cup_games')}: ${Number(r.games) || 0}`].join(', '));
      ol.append(li);
    }
    board.append(ol);
    parts.push(board);
    root.replaceChildren(...parts);
    root.dataset.version = String(st.version);
    root.dataset.drawn = String(Date.now());
  }

  // flyIn moves the card the viewer just played from where it lay in the
  // hand to where it landed on the table (skipped under reduced motion).
  function flyIn(root) {
    const f = app.fly;
    if (!f || Date.now() - f.at > 5000) return;
    const landed = [...root.querySelectorAll('.center .card.enter')].find((c) => c.title === f.name);
    if (!landed) return;
    app.fly = null;
    if (!landed.animate || (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches)) return;
    const face = landed.querySelector('.face');
    const to = face.getBoundingClientRect();
    if (!to.width) return;
    landed.classList.remove('enter');
    root.dataset.flew = f.name; // for tests: which card flew last
    const k = f.rect.width / to.width;
    const dx = f.rect.left + f.rect.width / 2 - (to.left + to.width / 2);
    const dy = f.rect.top + f.rect.height / 2 - (to.top + to.height / 2);
    face.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${k})` },
      { transform: 'none' },
    ], { duration: 360, easing: 'cubic-bezier(0.2, 0.8, 0.3, 1)' });
  }

  // toTaker sends the cards of a pile just taken (a trick, Pile.taker)
  // from where they lay on the table to the seat that took them: copies
  // of them fly there and fade (skipped under reduced motion).
  function toTaker(root, sc, before) {
    if (!sc || !before.size || (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches)) return;
    const piles = arr(sc.center);
    const pileEls = root.querySelectorAll('.center .pile');
    piles.forEach((p, i) => {
      if (typeof p.taker !== 'number' || !pileEls[i]) return;
      const seat = root.querySelectorAll('.table .seat')[p.taker];
      const fresh = [...pileEls[i].querySelectorAll('.card.enter')].filter((c) => before.has(c.title));
      if (!seat || !fresh.length || !document.body.animate) return;
      const to = seat.getBoundingClientRect();
      for (const c of fresh) {
        const from = before.get(c.title);
        const ghost = el('div', 'ghost');
        ghost.append(from.svg.cloneNode(true));
        ghost.style.left = `${from.rect.left}px`;
        ghost.style.top = `${from.rect.top}px`;
        ghost.style.width = `${from.rect.width}px`;
        ghost.style.height = `${from.rect.height}px`;
        document.body.append(ghost);
        const dx = to.left + to.width / 2 - (from.rect.left + from.rect.width / 2);
        const dy = to.top + to.height / 2 - (from.rect.top + from.rect.height / 2);
        ghost.animate([
          { transform: 'none', opacity: 1 },
          { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 },
        ], { duration: 520, easing: 'ease-in' }).onfinish = () => ghost.remove();
      }
      root.dataset.taken = String(p.taker); // for tests: whose trick flew last
    });
  }

  // layout places the seats around the oval and fans the hand; it runs
  // after each render and on resize.
  function layout() {
    // Every size is read first and every position written after, so the
    // browser lays the page out once, not once per seat and card.
    const table = document.querySelector('.table');
    const hand = document.querySelector('.hand');
    if (table) table.style.height = '';
    const seats = table ? [...table.querySelectorAll('.seat')].map((e) => ({
      e, a: (Number(e.dataset.angle) * Math.PI) / 180, w: e.offsetWidth, h: e.offsetHeight,
    })) : [];
    const center = table && table.querySelector('.center');
    const centerH = center ? center.offsetHeight : 0;
    const centerW = center ? center.offsetWidth : 0;
    const tw = table ? table.clientWidth : 0;
    let th = table ? table.clientHeight : 0;
    const cards = hand ? [...hand.children] : [];
    const cw = cards.length ? cards[0].offsetWidth : 0;
    const room = hand ? hand.clientWidth - 40 : 0;

    if (table) {
      // Seats sit on an oval, each kept inside the table's width; the
      // oval grows until no seat covers what lies in the middle.
      const place = (h) => seats.map((s) => {
        const x = tw / 2 + (tw / 2 - s.w / 2 - 2) * Math.cos(s.a);
        const y = h / 2 + (h / 2 - s.h / 2 - 2) * Math.sin(s.a);
        const left = Math.min(Math.max(0, x - s.w / 2), Math.max(0, tw - s.w));
        return { s, left, top: y - s.h / 2 };
      });
      // Only seats above or below the middle can be moved off it by a
      // taller oval; the middle's width leaves room for those at the sides.
      const covers = (h, spots) => spots.some(({ s, left, top }) => {
        if (Math.abs(Math.sin(s.a)) < 0.3) return false;
        const cx0 = (tw - centerW) / 2;
        const cy0 = (h - centerH) / 2 - 2;
        return left < cx0 + centerW && left + s.w > cx0 && top < cy0 + centerH + 4 && top + s.h > cy0;
      });
      let spots = place(th);
      const start = th;
      // A replay's middle holds more (the trick, the last one, the pool)
      // and nothing below the table is to press: it may grow further.
      const most = start * (app.replay && app.replay.data ? 3 : 2);
      while (centerH > 0 && covers(th, spots) && th < most) {
        th += 8;
        spots = place(th);
      }
      if (th !== start) table.style.height = `${th}px`;
      for (const { s, left, top } of spots) {
        s.e.style.left = `${Math.round(left)}px`;
        s.e.style.top = `${Math.round(top)}px`;
      }
    }
    const n = cards.length;
    if (!n) return;
    const natural = cw + 8;
    const step = n > 1 ? Math.max(30, Math.min(natural, (room - cw) / (n - 1))) : natural;
    const fanned = step < natural;
    const mid = (n - 1) / 2;
    cards.forEach((c, i) => {
      c.style.marginLeft = i === 0 ? '0px' : `${Math.round(step - cw)}px`;
      // A gentle arc: at most ±9° and 9 px at the ends, whatever n.
      const d = mid > 0 ? (i - mid) / mid : 0;
      const spread = Math.min(9, n * 1.1);
      c.style.setProperty('--rot', fanned ? `${(d * spread).toFixed(2)}deg` : '0deg');
      c.style.setProperty('--drop', fanned ? `${(d * d * spread).toFixed(1)}px` : '0px');
      c.style.zIndex = String(i + 1);
    });
    hand.classList.toggle('fanned', fanned);
    hand.style.setProperty('--step', `${Math.round(step)}px`);
  }


  // tick updates the countdowns from the server's clock.
  function tick() {
    const now = Date.now() + app.offset;
    for (const { el: e, deadline } of app.timers) {
      const left = Math.max(0, deadline - now);
      const sec = Math.ceil(left / 1000);
      e.textContent = sec < 60 ? `⏱ ${sec} ${t('seconds_short')}` : `⏱ ${Math.ceil(sec / 60)} ${t('minutes_short')}`;
      e.classList.toggle('urgent', sec <= 10);
    }
  }

  // ----------------------------------------------------------------- replay

  // openReplay shows the finished game from its deal, move by move, every
  // seat's cards face up (api/replay); the live stream goes on beneath.
  function openReplay(step, game) {
    const k = typeof step === 'number' && step >= 0 ? step : 0;
    app.replay = { want: k, shown: -1, data: null, loading: false, fit: true, game: game || '' };
    goReplay(k);
  }

  function closeReplay() {
    app.replay = null;
    render();
    window.scrollTo(0, 0);
  }

  // goReplay asks for step k; taps faster than the answers come coalesce
  // into one request for the last step asked.
  function goReplay(k) {
    const r = app.replay;
    if (!r) return;
    const moves = r.data ? r.data.moves : Infinity;
    r.want = Math.max(0, Math.min(moves, Math.round(k)));
    if (!r.loading) loadReplay();
  }

  async function loadReplay() {
    const r = app.replay;
    if (!r) return;
    r.loading = true;
    document.body.classList.add('replay-wait');
    while (app.replay === r && r.want !== r.shown) {
      const step = r.want;
      let res;
      try {
        const query = { table: app.table, step: String(step) };
        if (r.game) query.game = r.game;
        res = await fetch(apiURL('api/replay', query), { headers: headers(), cache: 'no-store' });
      } catch {
        toast(t('offline'));
        break;
      }
      if (res.status === 429) {
        await sleep(1000);
        continue;
      }
      if (!res.ok) {
        const e = await readError(res);
        toast(e.text || t('offline'));
        if (!r.data) app.replay = null;
        else r.want = r.shown;
        break;
      }
      let d;
      try { d = await res.json(); } catch { break; }
      if (app.replay !== r || !d || typeof d.step !== 'number' || !d.scene) break;
      r.data = d;
      r.shown = d.step;
      if (r.want > d.moves) r.want = d.moves;
      render();
    }
    r.loading = false;
    document.body.classList.remove('replay-wait');
    if (!app.replay || !app.replay.data) render();
  }

  // replayMarks are the viewer's reviewed moves of a replay's answer, in
  // the order of the game.
  function replayMarks(d) {
    return arr(d.marks).filter((x) => x && typeof x.step === 'number');
  }

  // replayBar is the replay's controls, kept at the bottom of the screen:
  // where it is and the move that led there, the viewer's reviewed move,
  // the track with their marked moves (the review's three costliest
  // numbered apart), «⏭ next mistake», and the buttons (first, back, the
  // round, on, last; drawn in SVG).
  function replayBar(d) {
    const bar = el('section', 'hand-area has replay-bar');
    const where = el('div', 'replay-where');
    where.append(el('span', 'replay-label', str(d.label)));
    const m = d.move && typeof d.move === 'object' ? d.move : null;
    if (m) where.append(el('span', 'replay-move', [str(m.who), str(m.name)].filter(Boolean).join(': ')));
    bar.append(where);
    if (str(d.yours)) bar.append(el('div', 'replay-yours', d.yours));

    const moves = Math.max(0, Number(d.moves) || 0);
    const track = el('div', 'replay-track');
    const range = el('input', 'replay-range');
    range.type = 'range';
    range.min = '0';
    range.max = String(moves);
    range.value = String(d.step);
    range.setAttribute('aria-label', str(d.label));
    range.addEventListener('change', () => goReplay(Number(range.value)));
    track.append(range);
    const marks = replayMarks(d);
    if (marks.length && moves > 0) {
      const row = el('div', 'replay-marks');
      row.setAttribute('aria-label', t('replay_mine'));
      // The costliest last: drawn over the others where they crowd.
      const weight = (mk) => (mk.rank >= 1 && mk.rank <= 3 ? 4 - mk.rank : 0);
      const order = [...marks].sort((a, b) => weight(a) - weight(b));
      for (const mk of order) {
        const rank = Number(mk.rank) || 0;
        let cls = 'replay-mark';
        if (rank >= 1 && rank <= 3) cls += ' costly';
        if (mk.step === d.step) cls += ' here';
        const b = el('button', cls, rank >= 1 && rank <= 3 ? String(rank) : '');
        b.type = 'button';
        b.dataset.step = String(mk.step);
        b.style.left = `${(100 * mk.step) / moves}%`;
        let label = `${t('replay_move_short')} ${mk.step} · ${mk.grade || ''}`;
        if (b.textContent) label = `${t('replay_costly')} ${rank} · ${label}`;
        b.title = label;
        b.setAttribute('aria-label', label);
        b.addEventListener('click', () => goReplay(mk.step));
        row.append(b);
      }
      track.append(row);
    }
    bar.append(track);
    if (marks.length) {
      // «⏭ next mistake»: the viewer's next reviewed move after this step.
      const next = marks.find((mk) => mk.step > d.step);
      const b = el('button', 'replay-mistake');
      b.append(icon('mistake'), el('span', '', t('replay_next_mistake')));
      b.type = 'button';
      b.disabled = !next;
      if (next) b.dataset.step = String(next.step);
      b.addEventListener('click', () => { if (next) goReplay(next.step); });
      bar.append(b);
    }

    const nav = el('div', 'replay-nav');
    const button = (label, cls, to, off) => {
      const b = el('button', `replay-btn ${cls}`);
      b.append(icon(cls));
      b.type = 'button';
      b.setAttribute('aria-label', label);
      b.title = label;
      b.disabled = off;
      b.addEventListener('click', () => goReplay(to()));
      return b;
    };
    const at = d.step;
    nav.append(
      button(t('replay_first'), 'first', () => 0, at <= 0),
      button(t('replay_prev'), 'prev', () => app.replay.want - 1, at <= 0),
    );
    const rounds = arr(d.rounds).filter((x) => x && typeof x.step === 'number');
    if (rounds.length > 1) {
      const pick = el('select', 'replay-rounds');
      pick.setAttribute('aria-label', t('replay_rounds'));
      let current = 0;
      rounds.forEach((rd, i) => {
        const o = el('option', '', str(rd.label));
        o.value = String(rd.step);
        pick.append(o);
        if (rd.step <= at) current = i;
      });
      pick.selectedIndex = current;
      pick.addEventListener('change', () => goReplay(Number(pick.value)));
      nav.append(pick);
    }
    nav.append(
      button(t('replay_next'), 'next', () => app.replay.want + 1, at >= moves),
      button(t('replay_last'), 'last', () => moves, at >= moves),
    );
    bar.append(nav);
    return bar;
  }

  // fileEl is the game's file of its deal and moves, as the players got it
  // in private: what checks the deal (/rules, last page). It sits under
  // the hands, not in the bar: the bar keeps to what steps.
  function fileEl(d) {
    const file = d.file;
    if (!file || !str(file.name) || typeof file.data !== 'string') return null;
    const a = el('a', 'replay-file', t('replay_file'));
    a.download = file.name;
    a.href = URL.createObjectURL(new Blob([file.data], { type: 'application/json' }));
    return a;
  }

  // handsEl lists every seat's cards face up, the viewer's first, each
  // group of cards under its note («🖐»: in hand) after the others; a tap
  // shows a seat's cards large.
  function handsEl(d, sc, fresh) {
    const box = el('section', 'replay-hands');
    const seats = arr(sc.seats);
    const n = seats.length;
    const me = typeof d.seat === 'number' && d.seat >= 0 && d.seat < n ? d.seat : 0;
    for (let k = 0; k < n; k++) {
      const i = (me + k) % n;
      const s = seats[i];
      const cards = arr(s && s.cards);
      const row = el('button', s && s.you ? 'replay-hand you' : 'replay-hand');
      row.type = 'button';
      row.setAttribute('aria-label', `${t('enlarge')}: ${str(s && s.name)}`);
      row.addEventListener('click', () => showCards(str(s.name), cards));
      row.append(el('span', 'replay-who', str(s && s.name)));
      const line = el('span', 'replay-cards');
      const keys = cardKeys(`r${i}`, cards);
      let note = null;
      cards.forEach((c, j) => {
        const cn = str(c.note);
        if (cn !== note) {
          if (cn) line.append(el('span', 'replay-note', cn));
          note = cn;
        }
        line.append(cardEl(c, 'sm', keys[j], fresh));
      });
      row.append(line);
      box.append(row);
    }
    return box;
  }

  // icon draws a control's symbol in SVG: no font needed.
  function icon(kind) {
    const s = svgEl('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false', class: 'replay-icon' });
    const tri = (pts) => s.append(svgEl('polygon', { points: pts, fill: 'currentColor' }));
    const bar = (x) => s.append(svgEl('rect', { x, y: 5, width: 2.6, height: 14, rx: 1, fill: 'currentColor' }));
    if (kind === 'first') { bar(5); tri('19,5 19,19 8.6,12'); }
    if (kind === 'prev') tri('17,5 17,19 6.5,12');
    if (kind === 'next') tri('7,5 7,19 17.5,12');
    if (kind === 'last' || kind === 'mistake') { tri('5,5 5,19 15.4,12'); bar(16.4); }
    return s;
  }

  // renderReplay draws the replay's step in place of the live table.
  function renderReplay(st, d, root) {
    app.myTurn = false;
    app.timers = [];
    const fresh = new Set();
    const sc = d.scene;
    const h = header(st, sc, true);
    // The hands come right above the bar: scrolled to the end, nothing of
    // them is under it (the log and the file go above and below them).
    const hands = handsEl(d, sc, fresh);
    const file = fileEl(d);
    if (file) hands.append(file);
    const parts = [h, tableEl({ seat: d.seat }, sc, fresh, true)];
    const log = logEl(sc);
    if (log) parts.push(log);
    parts.push(hands, replayBar(d));
    // A page at its end stays there from step to step: the hands stay in
    // view above the bar however tall the table gets.
    const doc = document.scrollingElement || document.documentElement;
    const atEnd = app.replay.fit || window.scrollY + window.innerHeight >= doc.scrollHeight - 8;
    root.replaceChildren(...parts);
    root.dataset.replay = String(d.step);
    root.dataset.drawn = String(Date.now());
    app.cardKeys = fresh.size ? fresh : new Set(['-']);
    layout();
    if (atEnd) fitReplay();
    app.replay.fit = false;
  }

  // fitReplay scrolls the replay to the page's end when its open hands
  // reach under the bar: they are the last thing above it, so there they
  // end right above the bar (the table above them scrolls up instead).
  function fitReplay() {
    const hands = document.querySelector('.replay-hands');
    const bar = document.querySelector('.replay-bar');
    if (!hands || !bar) return;
    if (hands.getBoundingClientRect().bottom > bar.getBoundingClientRect().top + 0.5) {
      const doc = document.scrollingElement || document.documentElement;
      window.scrollTo(0, doc.scrollHeight);
    }
  }

  document.addEventListener('keydown', (ev) => {
    if (!app.replay || !app.replay.data || document.querySelector('.backdrop')) return;
    if (ev.target && /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName)) return;
    if (ev.key === 'ArrowRight') goReplay(app.replay.want + 1);
    else if (ev.key === 'ArrowLeft') goReplay(app.replay.want - 1);
    else if (ev.key === 'Home') goReplay(0);
    else if (ev.key === 'End') goReplay(app.replay.data.moves);
    else return;
    ev.preventDefault();
  });

  // ------------------------------------------------------------------- boot

  async function boot() {
    readLaunch();
    // The faces' own font (faces.ttf) first: once it is in, every device
    // draws them; only a page that cannot load it falls back to the
    // device's emoji, or to words.
    if (document.fonts && document.fonts.load) {
      const loaded = document.fonts.load("20px 'Trickchef Faces'", '🍅').catch(() => []);
      await Promise.race([loaded, new Promise((done) => setTimeout(done, 3000))]);
    }
    // «tcFaces=words» in the fragment shows the words as a device without
    // the font would (development and tests).
    app.textFaces = hashParams().get('tcFaces') === 'words' || !colourEmoji();
    document.documentElement.classList.toggle('text-faces', app.textFaces);
    systemScheme();
    if (window.matchMedia) {
      const mq = window.matchMedia('(prefers-color-scheme: dark)');
      if (mq.addEventListener) mq.addEventListener('change', systemScheme);
    }
    bridge();
    if (app.texts.loading) {
      const boot = document.querySelector('.boot');
      if (boot) boot.append(el('p', 'boot-text', t('loading')));
    }
    document.addEventListener('visibilitychange', () => setVisible(document.visibilityState === 'visible'));
    window.addEventListener('pagehide', () => sendSeen(false));
    window.addEventListener('online', reconnectNow);
    window.addEventListener('resize', layout);
    if (window.ResizeObserver) {
      // Laid out in the next frame, and only when the width changed:
      // layout changes heights, and doing it inside the observer's
      // callback is what makes «ResizeObserver loop» errors.
      let width = 0;
      let frame = 0;
      new ResizeObserver((entries) => {
        const w = Math.round(entries[0].contentRect.width);
        if (w === width) return;
        width = w;
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(layout);
      }).observe(document.getElementById('app'));
    }
    setInterval(tick, 1000);
    setInterval(watchdog, 5000);
    // The cup on screen follows its other tables too, which this table's
    // stream does not hear of.
    setInterval(() => { if (app.cupOpen && app.visible && Date.now() - app.cupAt > 15000) loadCup(); }, 5000);
    setInterval(() => { if (app.visible) sendSeen(true); }, 25000);

    let delay = 500;
    while (!(await loadState())) {
      await sleep(delay);
      delay = Math.min(delay * 2, 10000);
    }
    if (app.fatal) return;
    if (app.visible) sendSeen(true);
    stream();
  }

  boot();
})();
