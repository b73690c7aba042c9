"""How to play, on the box: a few short pages a game, written from ``../shared/rules/`` in our own words
with the box's default rules, stepped with NEXT (UNDO back, CONFIRM leaves). From the menu (How to play)
and from within a game (a long press of UNDO, the key H, or ``rules`` in a script). Pure: views with
translated text; ``companion.display.rules`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.i18n import N_, _
from companion.registry import game_title
from companion.screens.common import key_legend

RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "cant-stop": (
        (N_("The goal"),
         N_("Be the first to claim three columns. The columns are numbered 2 to 12 and are as long as that "
            "sum is likely with two dice: column 7 is the longest, 2 and 12 the shortest.")),
        (N_("Your turn"),
         N_("Roll the four dice and split them into two pairs. Move a runner up the column of each pair's "
            "sum. You have three runners a turn; once they are placed, only their columns can move.")),
        (N_("Roll again or stop"),
         N_("After each roll, roll again or stop. When you stop, your markers take the runners' places and "
            "the progress is yours. If a roll gives no sum you can use, you go bust: the runners leave and "
            "this turn's progress is lost.")),
        (N_("Claiming a column"),
         N_("A column is yours when you stop at its top. Everyone else's markers leave it, and no one may "
            "use it any more. The box shows each pairing, the chance to go bust and a hint; its win chances are "
            "against an equal player, one who plays as well as the hints.")),
        (N_("The screen"),
         N_("Beside each name: one box for each column you need, filled for each column you have claimed, "
            "and ★ with your games won on this box. With no camera, BANK enters a die and counts it up, NEXT "
            "goes on to the next die and CONFIRM enters the roll.")),
    ),
    "ludo": (
        (N_("The goal"),
         N_("Bring your four pawns from your yard all the way round the board and into your home. The first "
            "player with every pawn home wins; the others play on for the places.")),
        (N_("Rolling"),
         N_("Roll the die and move one pawn that many squares. A 6 brings a pawn out of the yard onto your "
            "start square and gives you another roll. Three sixes in a row end your turn.")),
        (N_("Capturing"),
         N_("If your pawn lands on a square with an opponent's pawn, that pawn goes back to its yard. "
            "Your home column is yours alone: no one else can enter it.")),
        (N_("Reaching home"),
         N_("A pawn needs the exact number to reach the end of its home column. The box reads the die and "
            "the board, checks every move and shows the legal moves and a hint.")),
        (N_("The screen"),
         N_("Arrows show the legal moves: the white one is chosen, NEXT picks another and CONFIRM plays it. "
            "A number on a pawn: that many pawns stand there. A star: a square that is safe when the safe "
            "squares rule includes stars. Beside each name: pawns home, or the place.")),
        (N_("With no camera"),
         N_("BANK counts the die from 1 to 6 and CONFIRM enters it. Then NEXT picks a move and CONFIRM "
            "plays it. UNDO takes back the last entry.")),
    ),
    "schotten-totten": (
        (N_("The goal"),
         N_("Nine stones lie between the two players. Claim five stones, or three stones side by side, "
            "to win the game. A match is several games; the points add up.")),
        (N_("Your turn"),
         N_("Play one card on your side of a stone, then draw a card. Each side of a stone holds three "
            "cards, and they form a formation.")),
        (N_("Formations"),
         N_("From strongest to weakest: a colour run (three in a row, one colour), three of a kind, one "
            "colour, a run, any three cards. Between equal formations the higher sum wins.")),
        (N_("Claiming a stone"),
         N_("Claim a stone when your formation beats theirs, or when the cards on the table prove that "
            "theirs can no longer beat yours. The box checks every claim from the cards it sees.")),
        (N_("The screen"),
         N_("Under the stones: each player's match points and stones. A yellow ! beside a stone: the other "
            "player may claim it next turn.")),
        (N_("With no camera"),
         N_("BANK shows a card and counts its value up, PASS changes its colour, NEXT its stone; CONFIRM "
            "plays it.")),
    ),
    "donkey-race": (
        (N_("The goal"),
         N_("Each player has a token on a race track. The player with the most points when a token reaches "
            "the finish wins the race.")),
        (N_("A round"),
         N_("The leader plays one to three cards of one value. Each other player in turn plays as many "
            "cards of a higher value, or passes.")),
        (N_("Points"),
         N_("The highest play gets 2 points and 2 spaces, every other player who played gets 1, and a "
            "player who only passed gets nothing. Then everyone draws back to three cards.")),
        (N_("The donkey card"),
         N_("The player holding the donkey card leads the first round. The highest player leads the next "
            "round. When the draw pile is empty, the played cards are shuffled into a new one.")),
        (N_("The screen"),
         N_("Each lane shows a player's token on the track, the points and the cards in hand; ★ marks the "
            "highest play of the round. With no camera, BANK enters your cards and counts their value up, "
            "NEXT changes how many, CONFIRM plays them and PASS passes.")),
    ),
}
"""Each game's pages: (title, text), marked for translation; every game ends with :data:`KEYBOARD`."""

KEYBOARD = (N_("On a keyboard"),
            N_("Space or Enter: CONFIRM. B: BANK. P: PASS. N or Tab: NEXT. U or Backspace: UNDO. The digits "
               "1-9 choose an option. H shows how to play, Q quits (the game is saved)."))
"""The last page of every game: which key is which button (``companion.app.inputs``) when the box is
played on a keyboard."""


@dataclass(frozen=True)
class RulesView:
    """One page of a game's rules: ``title`` (the game), ``heading`` and ``text`` of the page, the
    ``prompt`` (which page, what the buttons do), ``message`` (always "") and ``keys``."""

    title: str
    heading: str
    text: str
    page: int
    pages: int
    prompt: str
    message: str
    keys: tuple[tuple[str, str], ...]


def pages(game: str) -> int:
    """How many pages the rules of ``game`` have (the keyboard page included)."""
    return len(RULES[game]) + 1


def build_view(session, wins: dict[str, int] | None = None) -> RulesView:
    """The page ``session.page`` of the rules of ``session.game``."""
    every = RULES[session.game] + (KEYBOARD,)
    page = min(session.page, len(every) - 1)
    heading, text = every[page]
    prompt = _("How to play, page {page} of {pages}: NEXT for the next page, CONFIRM to go back").format(
        page=page + 1, pages=len(every))
    keys = key_legend(((Button.NEXT, N_("next page")), (Button.UNDO, N_("page back")), (Button.CONFIRM, N_("back"))))
    return RulesView(_("How to play {game}").format(game=game_title(session.game)), _(heading), _(text), page,
                     len(every), prompt, "", keys)


def final_line(session) -> str:
    """The rules add no line to ``companion play``'s output."""
    return ""
