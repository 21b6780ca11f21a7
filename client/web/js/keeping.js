// Keeping an account, on a screen of its own: a new password (the other devices signed out by it), where the account
// is signed in (each session, and ending one), its games as a JSON file, signing out here or everywhere, and deleting
// it (its password given again, and asked twice); and how the account is told of its games, and its vacation
// (js/away.js). Each is a request of the signed-in link; a password typed here goes in that one request and the field
// is emptied.

import { sentence } from "./account.js";
import { AwayPanels } from "./away.js";
import { byId, h, put } from "./dom.js";

/** A moment as this browser's clock reads it. */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit",
    minute: "2-digit" });
}

export class AccountScreen {
  /** app: { link, account (js/account.js) }. */
  constructor(app) {
    this.app = app;
    this.link = app.link;
    this.away = new AwayPanels(app);
    byId("password-change").addEventListener("submit", (event) => {
      event.preventDefault();
      this.changePassword();
    });
    byId("sessions-refresh").addEventListener("click", () => this.listSessions());
    byId("sign-out-here").addEventListener("click", () => this.app.account.signOut(false));
    byId("sign-out-everywhere").addEventListener("click", () => this.app.account.signOut(true));
    byId("export").addEventListener("click", () => this.exportGames());
    byId("delete-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.askDelete(true);
    });
    byId("delete-no").addEventListener("click", () => this.askDelete(false));
    byId("delete-yes").addEventListener("click", () => this.remove());
  }

  async show() {
    const info = this.app.account.info;
    if (!info) return;
    byId("account-title").textContent = info.name;
    byId("account-since").textContent = `Made ${new Date(info.created_at * 1000).toLocaleDateString(undefined,
      { dateStyle: "long" })}.`;
    byId("password-change-name").value = info.name; // for the browser's password manager: whose password
    for (const id of ["password-note", "sessions-note", "export-note", "delete-note"]) byId(id).textContent = "";
    byId("delete-confirm").hidden = true;
    byId("delete-question").textContent = `Delete the account ${info.name} for good? You resign from the games this `
      + "server plays for it, and every device is signed out. This cannot be undone.";
    await this.refresh();
  }

  /** What the screen shows of the server: the sessions, how the account is told, its vacation. */
  async refresh() {
    await Promise.all([this.listSessions(), this.away.show()]);
  }

  async ask(message, note) {
    try {
      return await this.link.request(message);
    } catch (error) {
      byId(note).textContent = sentence(error.message);
      return null;
    }
  }

  async changePassword() {
    const old = byId("old-password");
    const fresh = byId("new-password");
    const again = byId("new-password-again");
    const note = byId("password-note");
    if (!old.value || !fresh.value) {
      note.textContent = "Write your current password and the new one.";
      (old.value ? fresh : old).focus();
      return;
    }
    if (fresh.value !== again.value) {
      again.value = "";
      note.textContent = "The two new passwords differ: the password stays as it was.";
      again.focus();
      return;
    }
    const reply = await this.ask({ type: "change_password", password: old.value, new_password: fresh.value },
      "password-note");
    if (!reply) return;
    old.value = "";
    if (reply.type !== "password_changed") {
      note.textContent = `The password stays as it was: ${sentence(reply.message)}`;
      return;
    }
    fresh.value = "";
    again.value = "";
    const ended = reply.sessions_ended;
    note.textContent = "Password changed; " + (ended ? `${ended} other session${ended === 1 ? "" : "s"} ended: `
      + "those devices sign in again with the new one." : "no other device was signed in.");
    await this.listSessions();
  }

  /** Where the account is signed in: a session a device (or program), this browser's marked. */
  async listSessions() {
    const reply = await this.ask({ type: "list_sessions" }, "sessions-note");
    if (!reply) return;
    if (reply.type !== "sessions") {
      byId("sessions-note").textContent = sentence(reply.message);
      return;
    }
    put(byId("sessions").tBodies[0], ...reply.sessions.map((session) => h("tr", {
      "data-session": session.id, "data-current": String(session.current),
    },
    h("td", {}, session.client || "a program that did not say", session.current
      ? h("strong", {}, " (this browser)") : null),
    h("td", { "data-label": "since" }, when(session.created_at)),
    h("td", { "data-label": "last used" }, when(session.last_used_at)),
    h("td", { "data-label": "until" }, when(session.expires_at)),
    h("td", { class: "row-actions" }, session.current
      ? h("button", { type: "button", class: "small", onclick: () => this.app.account.signOut(false) }, "Sign out")
      : h("button", { type: "button", class: "small", "data-end": session.id,
        "aria-label": `End the session of ${session.client || "a program"} since ${when(session.created_at)}`,
        onclick: () => this.endSession(session.id) }, "End")))));
  }

  async endSession(id) {
    const reply = await this.ask({ type: "end_session", session: id }, "sessions-note");
    if (!reply) return;
    await this.listSessions();
    byId("sessions-note").textContent = reply.type === "session_ended" ? "Session ended: that device is signed out."
      : sentence(reply.message);
  }

  /** Every game of the account as a JSON file the browser downloads (made here: it never travels in a URL). */
  async exportGames() {
    const note = byId("export-note");
    note.textContent = "Gathering your games…";
    const reply = await this.ask({ type: "export_account" }, "export-note");
    if (!reply) return;
    if (reply.type !== "account_export") {
      note.textContent = sentence(reply.message);
      return;
    }
    const text = JSON.stringify({ account: reply.account, games: reply.games }, null, 2);
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const link = h("a", { href: url, download: `risc-${reply.account.name}-games.json`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    const count = reply.games.length;
    note.textContent = `${count} game${count === 1 ? "" : "s"} written to risc-${reply.account.name}-games.json.`;
  }

  /** The confirmation before deleting (shown, or put away); the password is asked first. */
  askDelete(shown) {
    const password = byId("delete-password");
    if (shown && !password.value) {
      byId("delete-note").textContent = "Give your password first: deleting the account needs it.";
      password.focus();
      return;
    }
    byId("delete-note").textContent = "";
    byId("delete-confirm").hidden = !shown;
    if (shown) byId("delete-no").focus();
  }

  async remove() {
    byId("delete-confirm").hidden = true;
    const password = byId("delete-password");
    const typed = password.value;
    password.value = "";
    const reply = await this.app.account.remove(typed);
    if (reply.type !== "account_deleted") {
      byId("delete-note").textContent = `The account stays: ${sentence(reply.message)}`;
    }
  }
}
