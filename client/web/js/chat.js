// Chat panels: the lobby's (lobby_chat, to whoever is in the lobby) and a game's (its log's chat entries: to
// everyone, to one player, or among those who watch). The server decides who hears a word; a panel shows what came
// and sends what is typed, with whom it is for.

import { h, put } from "./dom.js";

const MOST_SHOWN = 200;
export const MAX_WORDS = 300;

/** A word of a game's chat in a few words: who said it, and to whom when not to everyone. */
export function chatHeading(said, you) {
  const who = said.player + (said.player === you ? " (you)" : said.watching ? " (watching)" : "");
  if (said.to) return `${who} to ${said.to === you ? "you" : said.to}`;
  if (said.watchers) return `${who} to those who watch`;
  return who;
}

export class ChatPanel {
  /**
   * root: a section holding `ol.chat-lines`, a form with `input.chat-text`, optionally `select.chat-to` and
   * `input.chat-name`, and `p.chat-note`. say(text, to, name) sends a word and resolves with the server's reply.
   */
  constructor(root, say) {
    this.root = root;
    this.lines = root.querySelector(".chat-lines");
    this.text = root.querySelector(".chat-text");
    this.to = root.querySelector(".chat-to");
    this.name = root.querySelector(".chat-name");
    this.note = root.querySelector(".chat-note");
    this.text.maxLength = MAX_WORDS;
    root.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send(say);
    });
  }

  async send(say) {
    const text = this.text.value.trim();
    if (!text) return;
    const name = this.name && !this.name.closest("[hidden]") ? this.name.value.trim() : null;
    if (this.name && !this.name.closest("[hidden]") && !name) {
      this.say("Write your name first: it is how the others will know you.");
      this.name.focus();
      return;
    }
    this.say("");
    let reply;
    try {
      reply = await say(text, this.to && this.to.value ? this.to.value : null, name);
    } catch (error) {
      this.say(error.message);
      return;
    }
    if (reply.type === "error") this.say(reply.message);
    else this.text.value = "";
  }

  say(text) {
    this.note.textContent = text;
  }

  clear() {
    put(this.lines);
    this.say("");
  }

  /** One word: `heading` (who, to whom), the text; `attrs` mark it for whoever reads the page. */
  add(heading, text, attrs = {}) {
    this.lines.append(h("li", attrs, h("strong", {}, heading), ": ", text));
    while (this.lines.childElementCount > MOST_SHOWN) this.lines.firstElementChild.remove();
    this.lines.scrollTop = this.lines.scrollHeight;
  }

  /** Whom a word may be for: [value, label] pairs, the first the default (value "": no one in particular). */
  offer(choices) {
    if (!this.to) return;
    const now = [...this.to.options].map((o) => `${o.value}\u0000${o.textContent}`).join("\u0001");
    if (now === choices.map(([v, l]) => `${v}\u0000${l}`).join("\u0001")) return;
    const kept = this.to.value;
    put(this.to, ...choices.map(([value, label]) => h("option", { value }, label)));
    if (choices.some(([value]) => value === kept)) this.to.value = kept;
  }
}
