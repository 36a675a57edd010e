// The devices page: link another device with a one-time code (and its QR code), enter a
// code from another device, list and unlink devices, download or delete the player's data.
// The server does all of it (docs/devices.md); the page only shows and asks.
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { confirmDialog, errorText, formatDate, request } from "./stats.js";

/** The code a link's fragment carries (`/devices#code=ABCD-EFGH-JKMN`), or "". */
function codeInHash() {
  const m = /(?:^#|&)code=([\w-]{1,40})/.exec(location.hash);
  return m ? m[1] : "";
}

class DevicesPage {
  constructor(main) {
    this.main = main;
    this.timer = null;
    this.code = null;
  }

  destroy() {
    clearInterval(this.timer);
  }

  async load() {
    try {
      this.devices = (await request("GET", "/api/devices")).devices;
    } catch (e) {
      this.main.replaceChildren(h("h1", {}, t("devices.title")), h("p.message.error", { role: "alert" }, errorText(e)));
      return;
    }
    this.draw();
  }

  draw() {
    const typed = this.input ? this.input.value : codeInHash();
    this.codeBox = h("div.link-code", { "aria-live": "polite" });
    this.input = h("input", {
      id: "link-code-input",
      type: "text", name: "code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      maxlength: "20", placeholder: "ABCD-EFGH-JKMN", value: typed, "aria-describedby": "link-code-help",
    });
    this.error = h("p.message.error", { role: "alert", hidden: true });
    const form = h("form.link-form", { onsubmit: (e) => { e.preventDefault(); this.link(); } },
      h("label", { for: "link-code-input" }, t("devices.enter_label")),
      h("div.link-row", {}, this.input, h("button.btn.primary", { type: "submit", "data-action": "link" }, t("devices.link_button"))),
      h("p.note", { id: "link-code-help" }, t("devices.enter_help")),
      this.error,
    );
    const page = h("div.stats-page.devices-page", {},
      h("div.page-head", {}, h("h1", {}, t("devices.title")),
        h("div.page-links", {}, h("a", { href: "/stats" }, t("nav.stats")), h("a", { href: "/history" }, t("nav.history")))),
      h("p.lead", {}, t("devices.lead")),
      h("section.devices-box", { "aria-labelledby": "devices-show" },
        h("h2", { id: "devices-show" }, t("devices.show_title")),
        h("p.note", {}, t("devices.show_help")),
        h("button.btn.primary", { type: "button", "data-action": "code", onclick: () => this.makeCode() },
          t(this.code ? "devices.code_again" : "devices.code_button")),
        this.codeBox),
      h("section.devices-box", { "aria-labelledby": "devices-enter" },
        h("h2", { id: "devices-enter" }, t("devices.enter_title")), form),
      h("section.devices-box", { "aria-labelledby": "devices-list" },
        h("h2", { id: "devices-list" }, t("devices.list_title")), this.list()),
      h("section.devices-box", { "aria-labelledby": "devices-data" },
        h("h2", { id: "devices-data" }, t("devices.data_title")),
        h("p.note", {}, t("devices.data_help")),
        h("div.data-actions", {},
          h("a.btn", { href: "/api/me/export", download: "pasyans-data.json", "data-action": "export" }, t("devices.export")),
          h("button.btn.danger", { type: "button", "data-action": "erase", onclick: () => this.erase() }, t("devices.erase")))),
    );
    this.main.replaceChildren(page);
    if (this.code) this.showCode();
  }

  list() {
    if (!this.devices.length) return h("p.empty", { "data-empty": "devices" }, t("devices.none"));
    return h("ul.device-list", {}, this.devices.map((d) => h("li.device", { "data-device": d.id, "data-current": String(d.current) },
      h("div.device-name", {}, d.label || t("devices.unknown"), d.current ? h("span.badge", {}, t("devices.this")) : null),
      h("div.device-dates", {}, t("devices.added", { date: formatDate(d.created_at) }), " · ",
        t("devices.seen", { date: formatDate(d.last_seen_at) })),
      this.devices.length > 1
        ? h("button.btn.small", { type: "button", "data-action": "unlink", onclick: () => this.unlink(d) }, t("devices.unlink"))
        : null,
    )));
  }

  async makeCode() {
    try {
      this.code = await request("POST", "/api/devices/code", {});
    } catch (e) {
      toast(errorText(e));
      return;
    }
    this.code.until = Date.now() + this.code.seconds * 1000;
    if (!this.devices.length) await this.load(); // the first visit made the player and this device
    this.showCode();
  }

  showCode() {
    const button = this.main.querySelector('[data-action="code"]');
    if (button) button.textContent = t("devices.code_again");
    const c = this.code;
    const left = h("p.code-left");
    this.codeBox.replaceChildren(
      h("p.code-value", { "data-code": c.code }, c.code),
      h("img.code-qr", { src: c.qr, alt: t("devices.qr_alt"), width: "172", height: "172" }),
      left,
    );
    const tick = () => {
      const ms = c.until - Date.now();
      if (ms <= 0) {
        clearInterval(this.timer);
        this.code = null;
        if (button) button.textContent = t("devices.code_button");
        this.codeBox.replaceChildren(h("p.note", { "data-expired": "true" }, t("devices.expired")));
        return;
      }
      const s = Math.ceil(ms / 1000);
      left.textContent = t("devices.left", { time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` });
    };
    clearInterval(this.timer);
    this.timer = setInterval(tick, 1000);
    tick();
  }

  async link() {
    const code = this.input.value.trim();
    this.error.hidden = true;
    if (!code) return;
    const ok = await confirmDialog({
      titleText: t("devices.confirm_link_title"),
      text: t("devices.confirm_link_text"),
      confirm: t("devices.link_button"),
      cancel: t("reset.cancel"),
    });
    if (!ok) return;
    try {
      const out = await request("POST", "/api/devices/link", { code });
      this.devices = out.devices;
      this.input.value = "";
      if (location.hash) history.replaceState(null, "", location.pathname);
      this.draw();
      toast(t("devices.linked"));
    } catch (e) {
      this.error.textContent = errorText(e);
      this.error.hidden = false;
    }
  }

  async unlink(d) {
    const ok = await confirmDialog({
      titleText: t("devices.confirm_unlink_title"),
      text: t(d.current ? "devices.confirm_unlink_self" : "devices.confirm_unlink_text"),
      confirm: t("devices.unlink"),
      cancel: t("reset.cancel"),
    });
    if (!ok) return;
    try {
      this.devices = (await request("POST", `/api/devices/${encodeURIComponent(d.id)}/unlink`, {})).devices;
      if (d.current) this.devices = [];
      this.draw();
      toast(t("devices.unlinked"));
    } catch (e) {
      toast(errorText(e));
    }
  }

  async erase() {
    const ok = await confirmDialog({
      titleText: t("devices.confirm_erase_title"),
      text: t("devices.confirm_erase_text"),
      confirm: t("devices.erase"),
      cancel: t("reset.cancel"),
    });
    if (!ok) return;
    try {
      const out = await request("POST", "/api/me/delete", { confirm: true });
      clearInterval(this.timer);
      this.code = null;
      this.devices = [];
      this.draw();
      toast(t("devices.erased", { games: out.games }));
    } catch (e) {
      toast(errorText(e));
    }
  }
}

export async function showDevices(main) {
  document.title = `${t("devices.title")} · ${t("brand")}`;
  const page = new DevicesPage(main);
  await page.load();
  if (codeInHash()) page.input.focus();
  return page;
}
