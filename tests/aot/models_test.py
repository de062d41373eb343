"""Model zoo: determinism, example shapes, torchvision-compatible MobileNetV2."""

import pytest
import torch
from executorch.backends.arm.test.ops import test_cond

from ethosu_sdk.models import ZOO, UnknownModelError, load_model, model_names


@pytest.mark.parametrize("name", sorted(ZOO))
def test_same_seed_same_model_and_input(name):
    a, b = load_model(name, seed=3), load_model(name, seed=3)
    c = load_model(name, seed=4)
    for (ka, va), (kb, vb) in zip(a.module.state_dict().items(), b.module.state_dict().items()):
        assert ka == kb and torch.equal(va, vb)
    assert all(torch.equal(x, y) for x, y in zip(a.example_inputs, b.example_inputs))
    assert not torch.equal(a.example_inputs[0], c.example_inputs[0])
    assert [tuple(x.shape) for x in a.example_inputs] == [tuple(s) for s in ZOO[name].input_shapes]
    with torch.no_grad():
        out = a.module(*a.example_inputs)
    assert torch.isfinite(out).all()


def test_mobilenet_v2_has_torchvisions_layout():
    # torchvision documents mobilenet_v2 (IMAGENET1K_V1) with 3,504,872 parameters;
    # these key names and shapes are its state dict's.
    state = load_model("mobilenet_v2").module.state_dict()
    assert sum(v.numel() for k, v in state.items() if "running" not in k and "num_batches" not in k) == 3_504_872
    assert state["features.0.0.weight"].shape == (32, 3, 3, 3)
    assert state["features.1.conv.0.0.weight"].shape == (32, 1, 3, 3)
    assert state["features.1.conv.1.weight"].shape == (16, 32, 1, 1)
    assert state["features.2.conv.0.0.weight"].shape == (96, 16, 1, 1)
    assert state["features.2.conv.3.running_var"].shape == (24,)
    assert state["features.18.0.weight"].shape == (1280, 320, 1, 1)
    assert state["classifier.1.weight"].shape == (1000, 1280)
    assert len(state) == 314


def test_state_dict_round_trip(tmp_path):
    source = load_model("kws_dscnn", seed=7).module
    path = tmp_path / "kws.pt"
    torch.save(source.state_dict(), path)
    loaded = load_model("kws_dscnn", seed=0, state_dict_path=str(path)).module
    for key, value in source.state_dict().items():
        assert torch.equal(loaded.state_dict()[key], value), key


def test_unknown_model_names_the_zoo():
    with pytest.raises(UnknownModelError, match="mobilenet_v2"):
        load_model("resnet1000")
    assert model_names() == sorted(ZOO)


# A torch.cond inside a cond's branch: ExecuTorch's own test_cond
# [nested_one_arg_one_output].
_NestedCond = test_cond.CondNestedOneArgOneOutput


def test_an_exported_nested_cond_loads(tmp_path):
    x = torch.ones(2, 3)
    path = tmp_path / "nested_cond.pt2"
    torch.export.save(torch.export.export(_NestedCond(), (x,)), str(path))
    loaded = load_model(str(path))
    (example,) = loaded.example_inputs
    assert torch.equal(loaded.module(example), _NestedCond()(example))
