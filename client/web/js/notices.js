// Being told away from the game (docs/notifications.md): the server's `notice` messages shown through the browser's
// Notification API while the page is hidden, counted in the tab's title until the page shows again; and `looking`,
// which tells the server what the player looks at (nothing while the page is hidden), so that nobody is told about a
// game they are looking at.

export class Notices {
  constructor(link, currentGame) {
    this.link = link;
    this.currentGame = currentGame;
    this.unseen = 0;
    this.title = document.title;
    document.addEventListener("visibilitychange", () => this.visibility());
    const button = document.getElementById("notify-me");
    if (button && "Notification" in window && Notification.permission === "default") {
      button.hidden = false;
      button.addEventListener("click", async () => {
        await this.ask();
        button.hidden = true;
      });
    }
  }

  /** Tell the server what the player looks at now: the game on screen, or nothing while the page is hidden. */
  look() {
    const gameId = document.hidden ? null : this.currentGame();
    this.link.tell({ type: "looking", game_id: gameId || null });
  }

  visibility() {
    if (!document.hidden) {
      this.unseen = 0;
      document.title = this.title;
    }
    this.look();
  }

  /** A notice from the server: shown by the browser while the page is hidden, and in the tab's title. */
  take(notice) {
    if (!document.hidden && notice.game_id === this.currentGame()) return;
    this.unseen += 1;
    document.title = `(${this.unseen}) ${this.title}`;
    const note = document.getElementById("notice-line");
    if (note) note.textContent = notice.text;
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      const shown = new Notification("RISC", { body: notice.text, tag: notice.id });
      shown.onclick = () => {
        window.focus();
        if (notice.game_id) location.hash = `#game=${encodeURIComponent(notice.game_id)}`;
      };
    }
  }

  /** Ask the browser to let the page show notifications (from a click: browsers ask only then). */
  async ask() {
    if ("Notification" in window && Notification.permission === "default") await Notification.requestPermission();
  }
}
