// The WebSocket to the page's own server: the hello, requests paired with their replies by `ref`, and coming back
// after the link drops (with growing pauses), after which the page takes its seat back (see game.js). On a server of
// several nodes (docs/scaling.md) a request about a game another node plays is answered `redirect`: the link moves
// to that node and sends the request again; a game that moves sends a redirect of its own, and the link follows it.
// A link whose node no longer answers comes back through the page's own server, then the other nodes in turn.
// The link is signed in to an account when the page's cookie says so (js/account.js: the page never holds the
// session's token); after signing in or out the page opens it afresh, and a link whose session ended (close code
// 4010) comes back at once, as a guest's.

export const PROTOCOL = 5;
const SIGNED_OUT = 4010;
const FIRST_PAUSE = 500;
const LONGEST_PAUSE = 8000;
const REPLY_TIMEOUT = 15000;
const MAX_HOPS = 3;
const FOLLOWING = new Set(["join_game", "watch_game", "resume"]);

export function serverUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/`;
}

export class Link {
  /**
   * onMessage(message): every message the server sends that is not a reply to a request of ours.
   * onState(state, detail): "connecting", "open", "reconnecting", "closed" or "password".
   * onReconnect(): called once the link is back (hello answered), before anything else is sent.
   * onWelcome(welcome): every welcome, first (whether the link is signed in, and to which account).
   * onSessionEnded(): the server closed the link because its session ended; resolves once the page is ready to
   * come back as a guest (the link then opens again at once).
   */
  constructor({ onMessage, onState, onReconnect, onWelcome, onSessionEnded }) {
    this.onMessage = onMessage;
    this.onState = onState;
    this.onReconnect = onReconnect;
    this.onWelcome = onWelcome || (() => {});
    this.onSessionEnded = onSessionEnded || (() => Promise.resolve());
    this.ws = null;
    this.state = "closed";
    this.welcome = null;
    this.password = sessionStorage.getItem("risc.password") || null;
    this.pending = new Map();
    this.refs = 0;
    this.pause = FIRST_PAUSE;
    this.opened = false;
    this.stopped = false;
    this.url = serverUrl();
    this.moving = null;
    this.letGo = null; // the socket closed on purpose, to open afresh
    this.retry = null;
  }

  /** Where to try next after `this.url` did not answer: the page's own server, then each node the server named. */
  nextUrl() {
    const known = [serverUrl(), ...((this.welcome && this.welcome.nodes) || [])];
    const unique = known.filter((url, i) => known.indexOf(url) === i);
    const at = unique.indexOf(this.url);
    return unique[(at + 1) % unique.length];
  }

  /** Move the link to the node at `url` (a redirect); resolves once it is open there. */
  moveTo(url) {
    if (url === this.url && this.state === "open") return Promise.resolve();
    this.url = url;
    return this.relink();
  }

  /** Open the link afresh where it is (signed in or out since: the new handshake carries the cookie as it is now);
   * resolves with the new welcome. */
  relink() {
    return new Promise((resolve) => {
      const before = this.moving; // a move under way resolves with the same welcome
      this.moving = before ? (welcome) => { before(welcome); resolve(welcome); } : resolve;
      if (this.ws && this.ws.readyState !== WebSocket.CLOSED) {
        this.letGo = this.ws;
        this.ws.close();
      } else this.reopenIn(0); // between two tries: the next one now
    });
  }

  /** Open the link again in `wait` ms, unless it is open (or opening) by then: one try however many ask for it. */
  reopenIn(wait) {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.ws && this.ws.readyState <= WebSocket.OPEN) return;
      this.open().catch(() => {});
    }, wait);
  }

  setState(state, detail = "") {
    this.state = state;
    this.detail = detail;
    this.onState(state, detail);
  }

  /** A handshake refused says why only over HTTP, which a WebSocket hides from the page (a server holding as many
   * connections as it has room for answers 503, and one whose address holds its share 429): the page's own server's
   * /readyz, asked for this client, tells it, beside the next try. */
  askWhy() {
    const asked = this.state;
    fetch("/readyz?client", { cache: "no-store" })
      .then(async (response) => {
        if (response.ok) return;
        const why = (await response.text()).trim().replace(/^not ready: /, "");
        if (why && this.state === asked) this.setState(asked, `${why}; ${this.detail}`);
      })
      .catch(() => {}); // the server does not answer at all: the next try says so
  }

  /** Open the link and say hello; resolves with the welcome. */
  open() {
    this.stopped = false;
    this.setState(this.opened ? "reconnecting" : "connecting");
    return new Promise((resolve, reject) => {
      let ws;
      try {
        ws = new WebSocket(this.url);
      } catch (error) {
        // a URL the browser will not open (not a WebSocket's): tried as one that did not answer
        reject(error);
        this.tryElsewhere();
        return;
      }
      this.ws = ws;
      let greeted = false;
      ws.addEventListener("open", () => {
        // words: the rule set's events come with their words, which the page shows as they are (it knows no rules)
        const hello = { type: "hello", protocol: PROTOCOL, client: "risc-web", words: true, ref: "hello" };
        if (this.password) hello.password = this.password;
        ws.send(JSON.stringify(hello));
      });
      ws.addEventListener("message", (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch {
          return;
        }
        if (!greeted) {
          greeted = true;
          if (message.type === "welcome") {
            this.welcome = message;
            const again = this.opened;
            this.opened = true;
            this.pause = FIRST_PAUSE;
            this.setState("open");
            this.onWelcome(message);
            resolve(message);
            const moved = this.moving;
            this.moving = null;
            if (moved) moved(message);
            else if (again && this.onReconnect) this.onReconnect();
          } else {
            this.stopped = true;
            this.setState(message.code === "bad-password" ? "password" : "closed", message.message || "");
            reject(new Error(message.message || "the server refused the connection"));
          }
          return;
        }
        this.take(message);
      });
      let over = false;
      const ended = (code) => {
        if (over || this.ws !== ws) return;
        over = true;
        for (const { fail } of this.pending.values()) fail(new Error("the link to the server dropped"));
        this.pending.clear();
        if (!greeted) reject(new Error("cannot reach the server"));
        if (this.stopped) {
          if (this.state !== "password") this.setState("closed");
          return;
        }
        if (this.moving && this.letGo === ws) {
          // closed on purpose, to open afresh (where a redirect sends it); one that failed tries again as any does
          this.reopenIn(0);
          return;
        }
        if (code === SIGNED_OUT) {
          // the session ended (here or elsewhere): back at once, as a guest, once the page has let the session go
          this.setState("reconnecting", "signed out");
          this.onSessionEnded().finally(() => this.reopenIn(0));
          return;
        }
        if (greeted) this.tryLater();
        else {
          const refused = this.url;
          this.tryElsewhere();
          if (refused === serverUrl()) this.askWhy();
        }
      };
      ws.addEventListener("close", (event) => ended(event.code));
      // a connection the page's policy forbids: Chromium fires `error`, and no `close` follows
      ws.addEventListener("error", () => { if (ws.readyState === WebSocket.CLOSED) ended(0); });
    });
  }

  /** The link dropped: open it again after a pause, growing with each try. */
  tryLater() {
    this.setState("reconnecting", `trying again in ${(this.pause / 1000).toFixed(1)} s`);
    const wait = this.pause;
    this.pause = Math.min(LONGEST_PAUSE, this.pause * 2);
    this.reopenIn(wait);
  }

  /** Where the link went did not answer: the next place to try (the page's own server, then each node), after a
   * pause. */
  tryElsewhere() {
    this.url = this.nextUrl();
    this.tryLater();
  }

  take(message) {
    // A node stopping (not the page's own): come back through the page's own server, which plays its games next.
    if (message.type === "shutting_down" && this.url !== serverUrl()) this.url = serverUrl();
    if (message.type === "redirect" && !message.ref) {
      this.moveTo(message.url).then(() => this.onReconnect && this.onReconnect());
      return;
    }
    if (message.ref && this.pending.has(message.ref)) {
      const { done } = this.pending.get(message.ref);
      this.pending.delete(message.ref);
      done(message);
      return;
    }
    this.onMessage(message, false);
  }

  /** Send a message and resolve with the server's reply to it (an error is a reply too, not a rejection), where its
   * game is played: a redirect moves the link there and sends the message again. */
  async request(message) {
    let reply = await this.requestHere(message);
    for (let hop = 0; hop < MAX_HOPS && reply.type === "redirect"; hop++) {
      await this.moveTo(reply.url);
      // An order or a commit for a game that moved: the page takes its seat back there before sending it again.
      if (!FOLLOWING.has(message.type) && this.onReconnect) await this.onReconnect();
      reply = await this.requestHere(message);
    }
    return reply;
  }

  requestHere(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.state !== "open") {
      return Promise.reject(new Error("not connected to the server"));
    }
    const ref = `w${++this.refs}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(ref);
        reject(new Error("the server did not answer"));
      }, REPLY_TIMEOUT);
      this.pending.set(ref, {
        done: (reply) => { clearTimeout(timer); resolve(reply); },
        fail: (error) => { clearTimeout(timer); reject(error); },
      });
      this.ws.send(JSON.stringify({ ...message, ref }));
    });
  }

  /** Send a message that has no answer (`looking`); nothing when the link is down (it is said again on return). */
  tell(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.state === "open") this.ws.send(JSON.stringify(message));
  }

  usePassword(password) {
    this.password = password;
    sessionStorage.setItem("risc.password", password);
  }

  /** Drop the link as if the network had (for trying the page out); it comes back by itself. */
  drop() {
    if (this.ws) this.ws.close();
  }
}
