"""Sharing NodeSource in deep copies keeps every chain's content and keeps
each node's list its own."""

from __future__ import annotations

import copy

import torch
from torch.fx.traceback import NodeSource, NodeSourceAction

from ethosu_sdk.aot.workarounds import torch_provenance


class _TwoAdds(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x + 1) + 2


def _graph_with_chains() -> torch.fx.GraphModule:
    graph_module = torch.fx.symbolic_trace(_TwoAdds())
    previous = None
    for node in graph_module.graph.nodes:
        source = NodeSource(previous, "made_up_pass", NodeSourceAction.CREATE) if previous else None
        node.meta["from_node"] = [source] if source else []
        previous = node
    return graph_module


def test_a_new_source_shares_its_nodes_chain_in_a_list_of_its_own() -> None:
    assert torch_provenance.share_node_sources()
    last = list(_graph_with_chains().graph.nodes)[-1]
    chain = last.meta["from_node"]
    made = NodeSource(last, "p", NodeSourceAction.CREATE)
    # What NodeSource.__init__ deep-copies: the same records, a new list.
    assert made.from_node and made.from_node is not chain
    assert all(a is b for a, b in zip(made.from_node, chain))
    assert made.to_dict()["from_node"] == [s.to_dict() for s in chain]
    # A pass deep-copying a node's meta: the list is its own, appending
    # to it leaves the original alone.
    meta = copy.deepcopy(last.meta)
    meta["from_node"].append(NodeSource(None, "later"))
    assert len(meta["from_node"]) == len(chain) + 1 and meta["from_node"][0] is chain[0]


def test_idempotent() -> None:
    assert torch_provenance.share_node_sources()
    assert torch_provenance.share_node_sources()
    source = NodeSource(None, "p")
    assert copy.deepcopy(source) is source
