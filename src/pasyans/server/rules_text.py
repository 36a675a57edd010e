"""The rules of every game as shown on the site, in the project's own words (RU and EN).

Written from ``GAMES.md`` (the project's rule book). Plain text: sections of paragraphs,
no markup, so the page can show them with ``textContent``.
"""

from __future__ import annotations

Sections = list[tuple[str, list[str]]]

_COMMON_EN: Sections = [
    (
        "Everywhere",
        [
            "Two full decks, 104 cards: every card exists twice.",
            "Undo and redo are unlimited; undoing a redeal gives it back.",
            "A click on a card sends it to its best legal place (a foundation first, then a "
            "column it builds on, then an empty column); clicking it again tries the next "
            "place. A double click sends a card to a foundation.",
            "Autocollect is offered when every card left can go up to the foundations with "
            "no other kind of move.",
        ],
    )
]

_COMMON_RU: Sections = [
    (
        "Во всех играх",
        [
            "Две полные колоды, 104 карты: каждая карта есть в двух экземплярах.",
            "Отмена и повтор ходов без ограничений; отмена пересдачи возвращает её.",
            "Щелчок по карте отправляет её на лучшее разрешённое место (сначала в дом, затем "
            "на столбец, куда она ложится, затем в пустой столбец); повторный щелчок пробует "
            "следующее место. Двойной щелчок отправляет карту в дом.",
            "Автосбор предлагается, когда все оставшиеся карты можно поднять в дома без "
            "других ходов.",
        ],
    )
]

_TEXT: dict[str, dict[str, Sections]] = {
    "spine": {
        "en": [
            (
                "Goal",
                ["Build all eight foundations up in suit from Ace to King: all 104 cards."],
            ),
            (
                "Layout",
                [
                    "Eight columns of face-up cards, four on each side, and between them the "
                    "spine: one long face-up chain with all the other cards. Every card is "
                    "visible; only the top card of the spine can be played. There is no stock.",
                ],
            ),
            (
                "Moves",
                [
                    "The top card of a column or of the spine goes to a foundation, or onto a "
                    "column whose top card is one rank higher in the same suit (seven of "
                    "spades onto eight of spades).",
                    "Nothing is ever put back on the spine.",
                    "An empty column takes only a King (the option 'empty column' can allow any "
                    "card). One card moves at a time, unless the option 'runs' lets a "
                    "same-suit descending run move as one unit.",
                ],
            ),
            (
                "Spine length",
                [
                    "The spine holds 56, 40 or 24 cards; the columns then hold 6, 8 or 10 cards "
                    "each. A longer spine is harder.",
                ],
            ),
            (
                "Solvable deals",
                [
                    "A plainly shuffled deal of this game can almost never be won. So by "
                    "default the site deals only layouts proven winnable. You can still ask for "
                    "a plain random deal, knowing it is almost never solvable.",
                ],
            ),
        ],
        "ru": [
            ("Цель", ["Собрать все восемь домов по масти от туза до короля: все 104 карты."]),
            (
                "Раскладка",
                [
                    "Восемь столбцов открытых карт, по четыре с каждой стороны, а между ними "
                    "хребет: одна длинная открытая цепочка со всеми остальными картами. Видна "
                    "каждая карта; играть можно только верхней картой хребта. Колоды нет.",
                ],
            ),
            (
                "Ходы",
                [
                    "Верхняя карта столбца или хребта идёт в дом или на столбец, верхняя карта "
                    "которого на одно старше и той же масти (семёрка пик на восьмёрку пик).",
                    "На хребет карты никогда не кладутся.",
                    "Пустой столбец принимает только короля (параметр «пустой столбец» может "
                    "разрешить любую карту). За ход переносится одна карта, если параметр "
                    "«сколько карт за ход» не разрешает переносить убывающий ряд одной масти.",
                ],
            ),
            (
                "Длина хребта",
                [
                    "В хребте 56, 40 или 24 карты; в столбцах тогда по 6, 8 или 10 карт. Чем "
                    "длиннее хребет, тем труднее.",
                ],
            ),
            (
                "Решаемые раздачи",
                [
                    "Просто перетасованную раздачу этого пасьянса почти никогда нельзя "
                    "разложить. Поэтому по умолчанию сайт сдаёт только раскладки, для которых "
                    "доказано решение. Можно попросить и обычную случайную раздачу, зная, что "
                    "она почти никогда не сходится.",
                ],
            ),
        ],
    },
    "backbone": {
        "en": [
            ("Goal", ["Build all eight foundations up in suit from Ace to King."]),
            (
                "Layout",
                [
                    "In the middle, the spine: two face-up piles of 10 cards each, and the "
                    "tailbone, one card lying across their lower ends. Four columns on each "
                    "side get one face-up card each. The other 75 cards are the stock, face "
                    "down, with the waste beside it.",
                ],
            ),
            (
                "Moves",
                [
                    "While the tailbone lies there, the spine piles cannot be played. Once it "
                    "is gone, the exposed card of each spine pile can be played. Nothing is "
                    "ever put onto the spine.",
                    "A column builds down in suit, one card at a time; runs never move "
                    "together. An empty column takes any card: from the waste, the spine, "
                    "another column or a foundation.",
                    "The top card of the waste goes to a column or a foundation. The top card "
                    "of a foundation may come back onto a column where it fits.",
                ],
            ),
            (
                "Stock",
                [
                    "A click turns one card onto the waste. When the stock is empty, a click "
                    "turns the waste back over into the stock. Two passes through the stock "
                    "in all (one redeal).",
                ],
            ),
        ],
        "ru": [
            ("Цель", ["Собрать все восемь домов по масти от туза до короля."]),
            (
                "Раскладка",
                [
                    "В центре позвоночник: две открытые стопки по 10 карт и копчик — одна "
                    "карта поперёк их нижних концов. По четыре столбца с каждой стороны, в "
                    "каждом по одной открытой карте. Остальные 75 карт — закрытая колода, "
                    "рядом с ней отбой.",
                ],
            ),
            (
                "Ходы",
                [
                    "Пока лежит копчик, стопками позвоночника играть нельзя. Когда его нет, "
                    "открытая нижняя карта каждой стопки доступна. На позвоночник карты "
                    "никогда не кладутся.",
                    "Столбец строится вниз по масти, по одной карте; ряды не переносятся. "
                    "Пустой столбец принимает любую карту: из отбоя, с позвоночника, с другого "
                    "столбца или из дома.",
                    "Верхняя карта отбоя идёт на столбец или в дом. Верхнюю карту дома можно "
                    "вернуть на столбец, если она туда подходит.",
                ],
            ),
            (
                "Колода",
                [
                    "Щелчок открывает одну карту в отбой. Когда колода пуста, щелчок "
                    "переворачивает отбой обратно в колоду. Всего два прохода по колоде "
                    "(одна пересдача).",
                ],
            ),
        ],
    },
    "backbone-classic": {
        "en": [
            ("Goal", ["Build all eight foundations up in suit from Ace to King."]),
            (
                "Differences from Backbone",
                [
                    "The spine piles hold 9 cards each (19 with the tailbone); the columns get "
                    "one card each; the stock holds 77.",
                    "An empty column takes any card except a spine card: a King in the spine "
                    "can only leave onto a Queen on a foundation.",
                    "Foundation cards never move.",
                    "Otherwise as Backbone: columns build down in suit one card at a time, "
                    "the stock turns one card at a time, two passes in all.",
                ],
            ),
        ],
        "ru": [
            ("Цель", ["Собрать все восемь домов по масти от туза до короля."]),
            (
                "Отличия от Позвоночника",
                [
                    "В стопках позвоночника по 9 карт (19 вместе с копчиком); в столбцах по "
                    "одной карте; в колоде 77 карт.",
                    "Пустой столбец принимает любую карту, кроме карты с позвоночника: король "
                    "с позвоночника уходит только на даму в доме.",
                    "Карты из дома не возвращаются.",
                    "В остальном как в Позвоночнике: столбцы строятся вниз по масти по одной "
                    "карте, колода открывается по одной карте, два прохода.",
                ],
            ),
        ],
    },
    "spider": {
        "en": [
            (
                "Goal",
                [
                    "Make eight complete runs from King down to Ace, each of one suit. A "
                    "completed run leaves the table at once.",
                ],
            ),
            (
                "Layout",
                [
                    "Ten columns: the first four get 6 cards, the other six get 5; only the top "
                    "card of each is face up. The other 50 cards are the stock, face down.",
                    "With one suit all cards are spades; with two, spades and hearts.",
                ],
            ),
            (
                "Moves",
                [
                    "A card goes onto a card one rank higher, of any suit.",
                    "A run moves as one unit only when it descends in one suit; there is no "
                    "limit to its length. An empty column takes any card or movable run.",
                    "A face-down card left on top of a column turns face up by itself.",
                ],
            ),
            (
                "Stock",
                [
                    "A click deals one face-up card onto every column. It is refused while any "
                    "column is empty.",
                ],
            ),
        ],
        "ru": [
            (
                "Цель",
                [
                    "Собрать восемь полных рядов от короля до туза, каждый одной масти. "
                    "Собранный ряд сразу уходит со стола.",
                ],
            ),
            (
                "Раскладка",
                [
                    "Десять столбцов: в первых четырёх по 6 карт, в остальных шести по 5; "
                    "открыта только верхняя карта каждого. Остальные 50 карт — закрытая колода.",
                    "С одной мастью все карты пиковые; с двумя — пики и черви.",
                ],
            ),
            (
                "Ходы",
                [
                    "Карта кладётся на карту на одно старше любой масти.",
                    "Ряд переносится целиком, только если он убывает в одной масти; длина "
                    "ряда не ограничена. Пустой столбец принимает любую карту или ряд.",
                    "Закрытая карта, оказавшаяся сверху столбца, открывается сама.",
                ],
            ),
            (
                "Колода",
                [
                    "Щелчок сдаёт по одной открытой карте на каждый столбец. Сдавать нельзя, "
                    "пока есть пустой столбец.",
                ],
            ),
        ],
    },
    "nivernais": {
        "en": [
            (
                "Goal",
                [
                    "Fill all eight foundations: for each suit one builds up from Ace to King "
                    "and one builds down from King to Ace.",
                ],
            ),
            (
                "Layout",
                [
                    "Six columns of four face-up cards; only the top card of each can be "
                    "played. Eight reserve cells, four on each side, each start with one card. "
                    "The other 72 cards are the stock, face down.",
                ],
            ),
            (
                "Moves",
                [
                    "The top card of a column goes to a foundation of its suit that it "
                    "continues, or into an empty reserve cell.",
                    "A reserve card goes only to a foundation. Columns never receive a card "
                    "from the player, and foundation cards never move.",
                    "An emptied column is refilled at once with up to four cards from the stock.",
                ],
            ),
            (
                "Stock and redeals",
                [
                    "A click deals four cards onto column 1, then four onto column 2, and so "
                    "on, as far as the stock lasts.",
                    "When the stock is empty, a click gathers the six columns, without "
                    "shuffling, into a new stock and deals again. Two redeals (three passes) "
                    "in all.",
                ],
            ),
        ],
        "ru": [
            (
                "Цель",
                [
                    "Заполнить все восемь домов: для каждой масти один строится вверх от туза "
                    "до короля, другой вниз от короля до туза.",
                ],
            ),
            (
                "Раскладка",
                [
                    "Шесть столбцов по четыре открытые карты; играть можно только верхней. "
                    "Восемь ячеек резерва, по четыре с каждой стороны, в каждой сначала по "
                    "карте. Остальные 72 карты — закрытая колода.",
                ],
            ),
            (
                "Ходы",
                [
                    "Верхняя карта столбца идёт в дом своей масти, если продолжает его, или в "
                    "пустую ячейку резерва.",
                    "Карта из резерва идёт только в дом. На столбцы игрок карт не кладёт, "
                    "карты из дома не двигаются.",
                    "Опустевший столбец сразу пополняется до четырёх картами из колоды.",
                ],
            ),
            (
                "Колода и пересдачи",
                [
                    "Щелчок сдаёт четыре карты на первый столбец, затем четыре на второй и "
                    "так далее, пока хватает колоды.",
                    "Когда колода пуста, щелчок собирает шесть столбцов без тасовки в новую "
                    "колоду и сдаёт снова. Всего две пересдачи (три прохода).",
                ],
            ),
        ],
    },
}


def rules_for(game_id: str) -> dict[str, Sections]:
    """The rules of ``game_id`` in both languages, the common part last."""
    text = _TEXT.get(game_id, {"en": [], "ru": []})
    return {"en": text["en"] + _COMMON_EN, "ru": text["ru"] + _COMMON_RU}
