"""Board geometry data (ludo.md B.2, B.2b): consistency of assets/ludo/*.json via load_board."""

import pytest

from companion.games.ludo import BOARD_NAMES, COLOURS, load_board


def _rot(cell, n):
    r, c = cell
    return (c, n - 1 - r)


@pytest.mark.parametrize("name,size,length,offsets,home", [
    ("ludo52", 15, 52, (0, 13, 26, 39), 5),
    ("mensch40", 11, 40, (0, 10, 20, 30), 4),
])
def test_sizes_and_offsets(name, size, length, offsets, home):
    b = load_board(name)
    assert b.grid_size == size and b.track_length == length and b.home_length == home
    assert tuple(b.colours[c].start_offset for c in COLOURS) == offsets
    for c in COLOURS:
        assert len(b.colours[c].yard) == 4 and len(b.colours[c].home_column) == home


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_track_is_a_closed_loop_of_neighbours(name):
    b = load_board(name)
    t = b.track
    diagonal = 0
    for i in range(len(t)):
        (r1, c1), (r2, c2) = t[i], t[(i + 1) % len(t)]
        assert max(abs(r1 - r2), abs(c1 - c2)) == 1, (i, t[i], t[(i + 1) % len(t)])
        diagonal += abs(r1 - r2) + abs(c1 - c2) == 2
    # ludo52 turns round the 4 inner corners of the cross diagonally; mensch40 has only edge steps
    assert diagonal == (4 if name == "ludo52" else 0)


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_no_cell_used_twice_and_all_inside_grid(name):
    b = load_board(name)
    cells = list(b.track)
    for c in COLOURS:
        g = b.colours[c]
        cells += list(g.yard) + list(g.home_column) + ([g.finish] if g.finish else [])
    assert len(cells) == len(set(cells))
    assert all(0 <= r < b.grid_size and 0 <= c < b.grid_size for r, c in cells)


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_cross_shape(name):
    """Track and home cells lie in the cross's arms (3 middle rows or columns); yards in the corners."""
    b = load_board(name)
    n, mid = b.grid_size, b.grid_size // 2
    arm = {mid - 1, mid, mid + 1}
    corners = {(mid - 2, mid - 2), (mid - 2, mid + 2), (mid + 2, mid + 2), (mid + 2, mid - 2)}
    for r, c in b.track:  # dga56 (B.2c): each inner corner of the cross holds one track square too
        assert r in arm or c in arm or (name == "dga56" and (r, c) in corners)
    yard_corner = dict(zip(b.clockwise, ((0, 0), (0, 1), (1, 1), (1, 0))))  # clockwise from the top left
    for colour in COLOURS:
        g = b.colours[colour]
        for r, c in g.home_column:
            assert r == mid or c == mid  # home runs along the arm's middle line
        for r, c in g.yard:
            assert (r > mid, c > mid) == tuple(bool(x) for x in yard_corner[colour])
            assert r not in arm and c not in arm


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_colours_are_quarter_turns_of_red(name):
    b = load_board(name)
    n = b.grid_size
    red = b.colours["red"]
    for k, colour in enumerate(b.clockwise[1:], start=1):
        g = b.colours[colour]
        for mine, reds in [(g.yard, red.yard), (g.home_column, red.home_column)]:
            turned = list(reds)
            for _ in range(k):
                turned = [_rot(x, n) for x in turned]
            assert list(mine) == turned
        # the start square is red's start turned k times
        start = b.track[0]
        for _ in range(k):
            start = _rot(start, n)
        assert b.track[g.start_offset] == start


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_home_column_joins_the_track(name):
    """Relative track_length-1 (B.2 'relative 50' / B.2b 39) is next to the first home square,
    which continues straight into the centre; the start square touches the yard's quarter."""
    b = load_board(name)
    for colour in COLOURS:
        last = b.cell_of(colour, b.track_positions - 1)
        first_home = b.cell_of(colour, b.track_positions)
        assert abs(last[0] - first_home[0]) + abs(last[1] - first_home[1]) == 1
        cells = [b.cell_of(colour, b.track_positions + k) for k in range(b.home_length)]
        if b.has_finish:
            cells.append(b.cell_of(colour, b.last_relative))
        for p, q in zip(cells, cells[1:]):
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1


def test_ludo52_known_cells_and_safe_squares():
    b = load_board("ludo52")
    assert b.track[0] == (6, 1) and b.track[51] == (6, 0) and b.track[50] == (7, 0)
    assert b.track_positions == 51 and b.cell_of("red", 50) == (7, 0)
    assert b.cell_of("red", 51) == (7, 1) and b.cell_of("red", 56) == (7, 6)
    assert b.cell_of("green", 0) == (1, 8)
    assert b.last_relative == 56
    assert b.safe_squares["starts_and_stars"] == (0, 8, 13, 21, 26, 34, 39, 47)
    assert b.safe_squares["starts"] == (0, 13, 26, 39)
    assert b.colours["yellow"].safe == (26, 34)
    assert b.absolute("blue", 13) == 0 and b.absolute("blue", 51) is None


def test_mensch40_known_cells():
    b = load_board("mensch40")
    assert b.track[0] == (4, 0) and b.track[39] == (5, 0) and b.track_positions == 40
    assert b.cell_of("red", 40) == (5, 1) and b.cell_of("red", 43) == (5, 4)
    assert b.last_relative == 43 and not b.has_finish
    with pytest.raises(ValueError):
        b.cell_of("red", 44)
    assert b.safe_squares["starts"] == (0, 10, 20, 30)


def test_unknown_board():
    with pytest.raises(ValueError, match="unknown Ludo board"):
        load_board("hex")
