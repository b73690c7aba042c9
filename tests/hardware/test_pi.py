"""hardware.pi: a Raspberry Pi is told by its device tree's model string."""

from hardware.pi import is_raspberry_pi


def test_a_raspberry_pi_model_string_is_a_pi(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert is_raspberry_pi(model)


def test_another_board_or_no_device_tree_is_not_a_pi(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Pine64 RockPro64 v2.1\x00")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "absent")
