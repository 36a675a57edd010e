// Russian and English strings; the language comes from localStorage, else the browser.
import { prefs, setPref } from "./prefs.js";

const STRINGS = {
  en: {
    brand: "Pasyans",
    skip: "Skip to content",
    "nav.games": "Games",
    "pref.large": "Large",
    "pref.timer": "Timer",
    "pref.lang_label": "Language: switch to Russian",
    "home.title": "Patience games",
    "home.lead": "Five two-deck patience games. Choose the options and play; every deal has a number you can share.",
    "home.play": "Play",
    "home.rules": "Rules",
    "home.deal_kind": "Deal",
    "kind.solvable": "solvable only",
    "kind.random": "random",
    "kind.random_spine": "random (almost never solvable)",
    "rules.title": "Rules: {title}",
    "rules.play": "Play {title}",
    "rules.none": "The rules text is not available.",
    "btn.new": "New game",
    "btn.replay": "Replay deal",
    "btn.goto": "Go",
    "btn.undo": "Undo",
    "btn.redo": "Redo",
    "btn.hint": "Hint",
    "btn.winnable": "Winnable?",
    "msg.winnable_won": "Yes: a win still exists from here.",
    "msg.winnable_lost": "No: no win is possible from here.",
    "msg.winnable_unknown": "Not known: no answer in time, or cards are still hidden.",
    "btn.autocollect": "Autocollect",
    "btn.keys": "Keys",
    "btn.rules": "Rules",
    "btn.close": "Close",
    "deal.label": "Deal number",
    "deal.n": "Deal {n}",
    "stat.moves": "Moves",
    "stat.score": "Score",
    "stat.time": "Time",
    "stat.hints": "Hints",
    "stat.undos": "Undos",
    "stat.foundation": "On foundations",
    "stock.passes": "Passes left: {n}",
    "stock.redeals": "Redeals left: {n}",
    "stock.deals": "Deals left: {n}",
    "refusal.stock_empty_column": "You cannot deal while a column is empty: put a card in every column first.",
    "refusal.no_redeals_left": "The stock is empty and no redeal is left.",
    "refusal.stock_empty": "The stock is empty.",
    "refusal.no_stock": "This game has no stock.",
    "msg.no_move": "This card has no move now.",
    "msg.no_hint": "No useful move found.",
    "msg.hint": "Hint: {move}",
    "hint.stock": "use the stock.",
    "msg.stale": "The game changed in another tab; the table shows the latest position.",
    "msg.error": "Something went wrong: {message}",
    "msg.offline": "The server cannot be reached. Your game is saved; try again.",
    "msg.game_over": "This game is over. Start a new game or replay the deal.",
    "msg.nothing_undo": "Nothing to undo.",
    "msg.moved_meanwhile": "That card moved before your click could act: click it again where it is now.",
    "msg.auto_on": "Safe moves to the foundations: on.",
    "msg.auto_off": "Safe moves to the foundations: off.",
    "btn.auto": "Auto-moves",
    "abandon.title": "Leave this game?",
    "abandon.text": "The game in progress will count as lost in your statistics.",
    "abandon.yes": "Leave it (counts as lost)",
    "abandon.no": "Keep playing",
    "best.time": "Best time",
    "best.moves": "Fewest moves",
    "best.streak": "Best streak",
    "best.beaten": "— new best!",
    "msg.nothing_redo": "Nothing to redo.",
    "won.title": "You won!",
    "won.text": "Deal {deal} is solved.",
    "stuck.title": "No moves left",
    "stuck.text": "There is no legal move, deal or redeal left in this position.",
    "notfound.title": "Page not found",
    "soon.title": "Coming soon",
    "soon.text": "This page is not ready yet.",
    "loading": "Loading…",
    "table.label": "{title}, deal {deal}",
    "pile.column": "Column {n}",
    "pile.foundation": "Foundation {n}",
    "pile.foundation_up": "Foundation {n}, up from Ace, {suit}",
    "pile.foundation_down": "Foundation {n}, down from King, {suit}",
    "pile.reserve": "Cell {n}",
    "pile.stock": "Stock",
    "pile.waste": "Waste",
    "pile.spine": "Spine",
    "pile.spine1": "Spine, left",
    "pile.spine2": "Spine, right",
    "pile.tailbone": "Tailbone",
    "pile.done": "Completed runs",
    "pile.summary": "{name}, {count} cards",
    "pile.summary_top": "{name}, {count} cards, top: {top}",
    "pile.empty": "{name}, empty",
    "pile.locked": "locked by the tailbone",
    "card.down": "Face-down card",
    "rank": ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"],
    "suit": { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    "card.name": "{rank} of {suit}",
    "move.done": "{card} to {pile}.",
    "follow.flip": "A card turned up.",
    "follow.complete": "A run was completed.",
    "follow.refill": "A column was refilled.",
    "card.where": "{card}, {pile}, {k} of {n}",
    "move.more": " and {n} more",
    "follow.flip_card": "{card} turned up.",
    "follow.complete_suit": "A run of {suit} was completed.",
    "follow.refill_pile": "{pile} got {card} from the stock.",
    "follow.turn": "{card} turned onto the waste.",
    "follow.redeal": "Redeal: {n} cards back in the stock.",
    "follow.deal": "Dealt {n} cards, one to each column.",
    "read.down": "{n} face down",
    "read.counters": "Moves: {moves}, score: {score}.",
    "kb.picked": "Picked up {card}. Can go to: {targets}. Move to a pile and press Enter; Escape puts it back.",
    "kb.cancel": "Put back.",
    "kb.not_here": "{card} cannot go to {pile}.",
    "kb.undone": "Move undone.",
    "kb.redone": "Move redone.",
    "kb.no_autocollect": "Nothing to autocollect.",
    "kb.collected": "Autocollect: {n} cards to the foundations.",
    "help.title": "Keyboard",
    "help.key": "Key",
    "help.en": "English",
    "help.ru": "Русский",
    "pref.four": "4 colours",
    "pref.four_label": "Four-colour suits",
    "btn.giveup": "Give up",
    "giveup.title": "Give up this game?",
    "giveup.text": "It counts as given up in your statistics. This cannot be undone.",
    "giveup.yes": "Give up",
    "giveup.no": "Keep playing",
    "giveup.done": "Game given up.",
    "up": "up",
    "down": "down",
  },
  ru: {
    brand: "Пасьянсы",
    skip: "К содержанию",
    "nav.games": "Игры",
    "pref.large": "Крупно",
    "pref.timer": "Таймер",
    "pref.lang_label": "Язык: переключить на английский",
    "home.title": "Пасьянсы",
    "home.lead": "Пять пасьянсов на две колоды. Выберите правила и играйте; у каждой раздачи есть номер, которым можно поделиться.",
    "home.play": "Играть",
    "home.rules": "Правила",
    "home.deal_kind": "Раздача",
    "kind.solvable": "только решаемые",
    "kind.random": "случайная",
    "kind.random_spine": "случайная (почти никогда не решается)",
    "rules.title": "Правила: {title}",
    "rules.play": "Играть: {title}",
    "rules.none": "Текст правил недоступен.",
    "btn.new": "Новая игра",
    "btn.replay": "Сыграть заново",
    "btn.goto": "Перейти",
    "btn.undo": "Отменить",
    "btn.redo": "Вернуть",
    "btn.hint": "Подсказка",
    "btn.winnable": "Решаемо?",
    "msg.winnable_won": "Да: отсюда ещё можно выиграть.",
    "msg.winnable_lost": "Нет: отсюда выиграть уже нельзя.",
    "msg.winnable_unknown": "Неизвестно: ответа нет за отведённое время или есть закрытые карты.",
    "btn.autocollect": "Автосбор",
    "btn.keys": "Клавиши",
    "btn.rules": "Правила",
    "btn.close": "Закрыть",
    "deal.label": "Номер раздачи",
    "deal.n": "Раздача {n}",
    "stat.moves": "Ходы",
    "stat.score": "Очки",
    "stat.time": "Время",
    "stat.hints": "Подсказки",
    "stat.undos": "Отмены",
    "stat.foundation": "В домах",
    "stock.passes": "Осталось проходов: {n}",
    "stock.redeals": "Осталось пересдач: {n}",
    "stock.deals": "Осталось раздач: {n}",
    "refusal.stock_empty_column": "Нельзя сдавать, пока есть пустой столбец: сначала положите карту в каждый столбец.",
    "refusal.no_redeals_left": "Колода кончилась, пересдач больше нет.",
    "refusal.stock_empty": "Колода пуста.",
    "refusal.no_stock": "В этом пасьянсе нет колоды.",
    "msg.no_move": "Этой карте сейчас некуда идти.",
    "msg.no_hint": "Полезного хода не найдено.",
    "msg.hint": "Подсказка: {move}",
    "hint.stock": "возьмите из колоды.",
    "msg.stale": "Игра изменилась в другой вкладке; на столе последняя позиция.",
    "msg.error": "Что-то пошло не так: {message}",
    "msg.offline": "Сервер недоступен. Игра сохранена; попробуйте ещё раз.",
    "msg.game_over": "Эта игра окончена. Начните новую или сыграйте раздачу заново.",
    "msg.nothing_undo": "Нечего отменять.",
    "msg.moved_meanwhile": "Эта карта сдвинулась раньше, чем сработал щелчок: щёлкните по ней там, где она теперь.",
    "msg.auto_on": "Безопасные ходы на базы: включены.",
    "msg.auto_off": "Безопасные ходы на базы: выключены.",
    "btn.auto": "Автоходы",
    "abandon.title": "Оставить эту игру?",
    "abandon.text": "Незаконченная игра будет засчитана в статистике как проигранная.",
    "abandon.yes": "Оставить (засчитать проигрыш)",
    "abandon.no": "Играть дальше",
    "best.time": "Лучшее время",
    "best.moves": "Меньше всего ходов",
    "best.streak": "Лучшая серия",
    "best.beaten": "— новый рекорд!",
    "msg.nothing_redo": "Нечего возвращать.",
    "won.title": "Победа!",
    "won.text": "Раздача {deal} разложена.",
    "stuck.title": "Ходов больше нет",
    "stuck.text": "В этой позиции не осталось ни хода, ни сдачи, ни пересдачи.",
    "notfound.title": "Страница не найдена",
    "soon.title": "Скоро",
    "soon.text": "Эта страница ещё не готова.",
    "loading": "Загрузка…",
    "table.label": "{title}, раздача {deal}",
    "pile.column": "Столбец {n}",
    "pile.foundation": "Дом {n}",
    "pile.foundation_up": "Дом {n}, вверх от туза, {suit}",
    "pile.foundation_down": "Дом {n}, вниз от короля, {suit}",
    "pile.reserve": "Ячейка {n}",
    "pile.stock": "Колода",
    "pile.waste": "Сброс",
    "pile.spine": "Хребет",
    "pile.spine1": "Позвоночник, левый",
    "pile.spine2": "Позвоночник, правый",
    "pile.tailbone": "Копчик",
    "pile.done": "Собранные ряды",
    "pile.summary": "{name}, карт: {count}",
    "pile.summary_top": "{name}, карт: {count}, сверху: {top}",
    "pile.empty": "{name}, пусто",
    "pile.locked": "закрыт копчиком",
    "card.down": "Карта рубашкой вверх",
    "rank": ["Туз", "Двойка", "Тройка", "Четвёрка", "Пятёрка", "Шестёрка", "Семёрка", "Восьмёрка", "Девятка", "Десятка", "Валет", "Дама", "Король"],
    "suit": { C: "треф", D: "бубен", H: "червей", S: "пик" },
    "card.name": "{rank} {suit}",
    "move.done": "{card} → {pile}.",
    "follow.flip": "Открылась карта.",
    "follow.complete": "Собран ряд.",
    "follow.refill": "Столбец пополнен.",
    "card.where": "{card}, {pile}, {k} из {n}",
    "move.more": " и ещё {n}",
    "follow.flip_card": "Открылась карта: {card}.",
    "follow.complete_suit": "Собран ряд, масть {suit}.",
    "follow.refill_pile": "{pile}: из колоды {card}.",
    "follow.turn": "В сброс: {card}.",
    "follow.redeal": "Пересдача: в колоду вернулось карт: {n}.",
    "follow.deal": "Сдано карт: {n}, по одной в каждый столбец.",
    "read.down": "рубашкой вверх: {n}",
    "read.counters": "Ходов: {moves}, очков: {score}.",
    "kb.picked": "Взята карта: {card}. Можно положить: {targets}. Выберите стопку и нажмите Enter; Escape — вернуть.",
    "kb.cancel": "Возвращено.",
    "kb.not_here": "{card} нельзя положить: {pile}.",
    "kb.undone": "Ход отменён.",
    "kb.redone": "Ход возвращён.",
    "kb.no_autocollect": "Нечего собирать.",
    "kb.collected": "Автосбор: в дома ушло карт: {n}.",
    "help.title": "Клавиатура",
    "help.key": "Клавиша",
    "help.en": "English",
    "help.ru": "Русский",
    "pref.four": "4 цвета",
    "pref.four_label": "Четыре цвета мастей",
    "btn.giveup": "Сдаться",
    "giveup.title": "Сдаться в этой игре?",
    "giveup.text": "В статистике игра будет засчитана как сданная. Отменить это нельзя.",
    "giveup.yes": "Сдаться",
    "giveup.no": "Играть дальше",
    "giveup.done": "Игра сдана.",
    "up": "вверх",
    "down": "вниз",
  },
};

export const RANKS = "A23456789TJQK";
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function detectLang() {
  const saved = prefs().lang;
  if (saved === "ru" || saved === "en") return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("ru") ? "ru" : "en";
}

let lang = detectLang();

export function getLang() {
  return lang;
}

export function setLang(value) {
  lang = value === "ru" ? "ru" : "en";
  setPref("lang", lang);
  document.documentElement.lang = lang;
}

/** A string by key, with {name} placeholders filled from params. */
export function t(key, params = {}) {
  const table = STRINGS[lang];
  let s = key in table ? table[key] : STRINGS.en[key] ?? key;
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Pick the right language from an object like {ru: "...", en: "..."}. */
export function pick(obj) {
  if (obj == null) return "";
  if (typeof obj === "string") return obj;
  return obj[lang] ?? obj.en ?? obj.ru ?? "";
}

/** "Queen of hearts" / "Дама червей" for a card code like "QH". */
export function cardName(code) {
  if (!code) return t("card.down");
  const rank = t("rank")[RANKS.indexOf(code[0])];
  return t("card.name", { rank, suit: t("suit")[code[1]] });
}

/** A pile's name in words: "Column 3", "Foundation 5, down from King, hearts". */
export function pileName(id, pile) {
  const m = /^([a-z]+?)(\d+)$/.exec(id);
  if (id === "spine1" || id === "spine2") return t(`pile.${id}`);
  if (m && m[1] === "t") return t("pile.column", { n: m[2] });
  if (m && m[1] === "r") return t("pile.reserve", { n: m[2] });
  if (m && m[1] === "f") {
    if (pile && pile.suit && pile.build) {
      return t(`pile.foundation_${pile.build}`, { n: m[2], suit: t("suit")[pile.suit] });
    }
    return t("pile.foundation", { n: m[2] });
  }
  return t(`pile.${id}`);
}

/** Fill every [data-i18n] element of root with its string. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
}
