"""The card readers of Schotten Totten and the donkey race, on the table's photo.

``read_schotten_totten(frame_bgr, calibration=None) -> CardsObservation`` (:mod:`.schotten_totten`, our
reference deck or any deck after :func:`calibrate_deck`) and ``read_donkey_race(frame_bgr, players,
donkey_value) -> CardsObservation`` (:mod:`.donkey_race`, each player's sector). Underneath: :mod:`.find`
(cards lying face up, rectified), :mod:`.value` and :mod:`.digits` / :mod:`.digit_net` (the large
value), :mod:`.corner` and :mod:`.st_index` (the corner index), :mod:`.colour_model`,
:mod:`.reference_deck` (our printable deck). For the measures: :mod:`.render`, :mod:`.render_other`,
:mod:`.eval`.
"""

from vision.cards.donkey_race import read_cards as read_donkey_race
from vision.cards.donkey_race import sector_names
from vision.cards.schotten_totten import StCalibration, calibrate_colours, calibrate_deck
from vision.cards.schotten_totten import read_cards as read_schotten_totten
from vision.observation import CardReading, CardsObservation

__all__ = ["read_schotten_totten", "read_donkey_race", "sector_names", "StCalibration", "calibrate_colours",
           "calibrate_deck", "CardReading", "CardsObservation"]
