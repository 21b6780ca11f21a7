// The WebSocket to the page's own server: the hello, requests paired with their replies by `ref`, and coming back
// after the link drops (with growing pauses), after which the page takes its seat back (see game.js). On a server of
// several nodes (docs/scaling.md) a request about a game another node plays is answered `redirect`: the link moves
// to that node and sends the request again; a game that moves sends a redirect of its own, and the link follows it.
// A link whose node no longer answers comes back through the page's own server, then the other nodes in turn.

export const PROTOCOL = 4;
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
   */
  constructor({ onMessage, onState, onReconnect }) {
    this.onMessage = onMessage;
    this.onState = onState;
    this.onReconnect = onReconnect;
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
    return new Promise((resolve) => {
      this.moving = resolve;
      if (this.ws) this.ws.close();
    });
  }

  setState(state, detail = "") {
    this.state = state;
    this.onState(state, detail);
  }

  /** Open the link and say hello; resolves with the welcome. */
  open() {
    this.stopped = false;
    this.setState(this.opened ? "reconnecting" : "connecting");
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
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
            resolve(message);
            const moved = this.moving;
            this.moving = null;
            if (moved) moved();
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
      ws.addEventListener("close", () => {
        if (this.ws !== ws) return;
        for (const { fail } of this.pending.values()) fail(new Error("the link to the server dropped"));
        this.pending.clear();
        if (!greeted) reject(new Error("cannot reach the server"));
        if (this.stopped) {
          if (this.state !== "password") this.setState("closed");
          return;
        }
        if (this.moving) {
          this.open().catch(() => {});
          return;
        }
        if (!greeted) this.url = this.nextUrl();
        this.setState("reconnecting", `trying again in ${(this.pause / 1000).toFixed(1)} s`);
        const wait = this.pause;
        this.pause = Math.min(LONGEST_PAUSE, this.pause * 2);
        setTimeout(() => this.open().catch(() => {}), wait);
      });
    });
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
