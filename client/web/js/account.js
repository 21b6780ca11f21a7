// The player's account as the page holds it: who the link is signed in as, the bar that says so, and the form that
// signs up or in. The page never holds the session's token: signing in is a plain POST to the server's own origin,
// the name and password in its Authorization header (never in a URL, and never kept: the fields are emptied once
// sent), answered with an HttpOnly, SameSite=Strict cookie that the link's next handshake carries; signing out is a
// POST that ends the session and lets the cookie go. A session that ends elsewhere (signed out everywhere, a new
// password, ended from another device, the account disabled or deleted) closes the link with code 4010: the page says
// so, lets the dead cookie go, and goes on as a guest.

import { byId } from "./dom.js";

/** A refusal or a note, as a sentence: the server words its refusals in lower case, with no full stop. */
export function sentence(text) {
  const said = String(text || "").trim();
  if (!said) return "";
  const first = said[0].toUpperCase() + said.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** A refusal of a create or a join in the server's words; where the server needs an account to play, how to get
 * one. */
export function refusalWords(reply) {
  if (reply.code !== "account-needed") return reply.message;
  return `${sentence(reply.message)} Sign up (or sign in) with the buttons in the lobby's "You", or Sign in or up at `
    + "the top of the page. Watching needs no account.";
}

/** One POST to /account/...: {ok: true, account} or {ok: false, code, message} in the server's words. */
async function post(path, headers) {
  let answer;
  try {
    answer = await fetch(path, { method: "POST", headers, credentials: "same-origin", cache: "no-store" });
  } catch {
    return { ok: false, code: "unreachable", message: "the server cannot be reached: try again once it can" };
  }
  const body = await answer.json().catch(() => null);
  if (answer.ok) return { ok: true, account: body ? body.account : null };
  return { ok: false, code: body ? body.code : `http-${answer.status}`,
    message: body ? body.message : `the server answered ${answer.status} ${answer.statusText}` };
}

/** Sign in (or up, `made`) over HTTP: the name and password go in the Authorization header (Basic, UTF-8). */
function postCredentials(made, name, password) {
  const bytes = new TextEncoder().encode(`${name}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const headers = { Authorization: `Basic ${btoa(binary)}` };
  const serverPassword = sessionStorage.getItem("risc.password");  // a server with a password wants it here too
  if (serverPassword) headers["X-Risc-Server-Password"] = serverPassword;
  return post(made ? "/account/sign-up" : "/account/sign-in", headers);
}

/** End the cookie's session (every session of its account, `everywhere`), and let the cookie go. */
function postSignOut(everywhere) {
  return post("/account/sign-out", everywhere ? { "X-Risc-Everywhere": "1" } : {});
}

const ENDED_ELSEWHERE = "Signed out: this browser's session was ended elsewhere (signed out everywhere, a new password, "
  + "ended from another device, or the account disabled or deleted). You play as a guest now; sign in again to play "
  + "your account's games.";

export class Account {
  /** app: { link, showSignIn(made), showHome(), showLobby(), showAccount(), reconnected(), accountChanged(),
   * accountGone(name) }. */
  constructor(app) {
    this.app = app;
    this.info = null; // the account the link is signed in to ({name, created_at}), or null: a guest
    this.mode = "off"; // the server's accounts: "off", "optional" or "required" (its welcome says)
    this.leaving = null; // this page's own sign-out, or the account's deletion, under way
    this.made = false; // the form signs up rather than in
    byId("open-sign-in").addEventListener("click", () => this.app.showSignIn(false));
    byId("open-home").addEventListener("click", () => this.app.showHome());
    byId("open-account").addEventListener("click", () => this.app.showAccount());
    byId("sign-out").addEventListener("click", () => this.signOut(false));
    byId("account-note-close").addEventListener("click", () => this.tell(""));
    byId("sign-in-mode").addEventListener("click", () => this.form(!this.made));
    byId("sign-in-back").addEventListener("click", () => this.app.showLobby());
    byId("sign-in-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /** The account's name, or null for a guest. */
  get name() {
    return this.info ? this.info.name : null;
  }

  get on() {
    return this.mode !== "off";
  }

  /** A sentence about the account over every screen (signed in, out, ended elsewhere); "" takes it away. */
  tell(text, kind = "note") {
    const note = byId("account-note");
    note.querySelector(".text").textContent = text;
    note.dataset.kind = kind;
    note.hidden = !text;
  }

  /** Each welcome says whether the link is signed in, and to which account. */
  welcomed(welcome) {
    const before = this.name;
    this.mode = welcome.accounts || "off";
    this.info = welcome.account || null;
    if (welcome.session_problem) {
      // the cookie names a session that signs nothing in any more: said, and the cookie let go (so said once)
      this.tell(`The session kept in this browser no longer signs you in (${welcome.session_problem}). You play `
        + "as a guest meanwhile.", "problem");
      this.forgetCookie();
    }
    if (!this.leaving && before && before !== this.name) this.app.accountGone(before);
    this.leaving = null; // a new link: whatever was ending has ended
    this.render();
  }

  /** The server's `signed_out`, unasked: the session ended elsewhere (the link closes next, code 4010). */
  signedOut() {
    if (this.leaving || !this.info) return; // this page's own doing, or said already
    const name = this.name;
    this.info = null;
    this.render();
    this.tell(ENDED_ELSEWHERE, "problem");
    this.app.accountGone(name);
  }

  /** The link closed because its session ended: ready to come back as a guest once the cookie is let go. */
  sessionEnded() {
    if (this.leaving) return this.leaving;
    this.signedOut();
    return this.forgetCookie();
  }

  /** Let a dead session's cookie go (the server ends nothing more: that session has ended). */
  forgetCookie() {
    return postSignOut(false);
  }

  /** What the header shows: who is signed in, with the home, the account and signing out; or the way in. */
  render() {
    const signed = Boolean(this.info);
    document.body.dataset.accounts = this.mode;
    document.body.dataset.signedIn = String(signed);
    byId("account-bar").hidden = !this.on;
    byId("signed-as").hidden = !signed;
    byId("account-name").textContent = this.name || "";
    for (const id of ["open-home", "open-account", "sign-out"]) byId(id).hidden = !signed;
    byId("open-sign-in").hidden = signed;
    this.app.accountChanged();
  }

  /** The form as one that signs in, or up (`made`: the password typed twice). */
  form(made) {
    this.made = made;
    byId("sign-in-form").dataset.mode = made ? "up" : "in";
    byId("sign-in-title").textContent = made ? "Sign up" : "Sign in";
    byId("sign-in-submit").textContent = made ? "Make the account" : "Sign in";
    byId("password-again-label").hidden = !made;
    byId("account-password").autocomplete = made ? "new-password" : "current-password";
    byId("sign-in-switch-text").textContent = made ? "An account already?" : "No account yet?";
    byId("sign-in-mode").textContent = made ? "Sign in" : "Sign up";
    byId("sign-in-note").textContent = "";
  }

  formNote(text) {
    byId("sign-in-note").textContent = text;
  }

  async submit() {
    const made = this.made;
    const name = byId("account-name-input").value.trim();
    const password = byId("account-password").value;
    const again = byId("account-password-again");
    if (!name) {
      this.formNote("Write the account's name.");
      byId("account-name-input").focus();
      return;
    }
    if (!password) {
      this.formNote("Write the password.");
      byId("account-password").focus();
      return;
    }
    if (made && again.value !== password) {
      again.value = "";
      this.formNote("The two passwords differ: no account was made. Type the same one twice.");
      again.focus();
      return;
    }
    const button = byId("sign-in-submit");
    button.disabled = true;
    this.formNote(made ? "Making the account…" : "Signing in…");
    try {
      const answer = await postCredentials(made, name, password);
      if (!answer.ok) {
        this.formNote(`${made ? "No account was made" : "Not signed in"}: ${sentence(answer.message)}`);
        byId("sign-in-form").dataset.code = answer.code || "";
        if (answer.code === "bad-credentials") byId("account-password").value = "";
        return;
      }
      this.emptyPasswords();
      byId("sign-in-form").dataset.code = "";
      this.formNote("");
      // the link again, its handshake carrying the cookie the answer set: signed in from now on
      const welcome = await this.app.link.relink();
      if (!welcome.account) {
        this.formNote("The server signed you in, but this browser kept no cookie of it (are cookies blocked for "
          + "this site?): you are still a guest.");
        await this.app.reconnected();
        return;
      }
      this.tell(`${made ? "Signed up and in" : "Signed in"} as ${welcome.account.name}: the games you join are the `
        + "account's, from any device, and this browser stays signed in (Sign out ends it).", "ok");
      await this.app.reconnected();
      this.app.showHome();
    } finally {
      button.disabled = false;
    }
  }

  emptyPasswords() {
    for (const id of ["account-password", "account-password-again"]) byId(id).value = "";
  }

  /** Sign out of this browser (`everywhere`: every device signed in to the account). */
  async signOut(everywhere) {
    const name = this.name;
    if (!name) return;
    this.leaving = postSignOut(everywhere);
    const answer = await this.leaving;
    if (!answer.ok) {
      this.leaving = null;
      this.tell(`Not signed out: ${sentence(answer.message)}`, "problem");
      return;
    }
    this.info = null;
    this.render();
    this.app.accountGone(name); // before the link comes back as a guest's, which holds none of the account's seats
    this.tell(`Signed out of ${name}${everywhere ? " on every device" : ""}: you play as a guest now. Your games stay `
      + "your account's: sign in again to play them.", "ok");
    await this.app.link.relink();
    await this.app.reconnected();
    this.app.showLobby();
  }

  /** Delete the account (its password given again): the server answers, then closes the link (code 4010). */
  async remove(password) {
    let settle;
    this.leaving = new Promise((resolve) => { settle = resolve; });
    let reply;
    try {
      reply = await this.app.link.request({ type: "delete_account", password });
    } catch (error) {
      reply = { type: "error", message: error.message };
    }
    if (reply.type !== "account_deleted") {
      this.leaving = null;
      settle();
      return reply;
    }
    const name = this.name;
    this.info = null;
    this.render();
    this.app.accountGone(name);
    const resigned = reply.resigned.length;
    this.tell(`The account ${name} is deleted${resigned ? `: you resigned from ${resigned} game`
      + `${resigned === 1 ? "" : "s"}` : ""}. Its games keep their record, and nobody else may take its name. You `
      + "play as a guest now.", "ok");
    // the cookie names a session of no account now: let go, then the link again, a guest's (the server closes the
    // old one itself)
    await this.forgetCookie();
    const back = this.app.link.relink();
    settle();
    await back;
    await this.app.reconnected();
    this.app.showLobby();
    return reply;
  }
}
