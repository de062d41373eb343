"""Test tiers (README, "Two commands"): `bazel test //...` runs the everyday
tier, `bazel test --config=full //...` adds every target tagged FULL.

.bazelrc filters FULL out of both the tests run and the targets built, so an
everyday run does not even build a full-tier test's inputs (tag those inputs
too). A generated suite keeps a stratified sample everyday and tags the rest.
"""

# The tag of the full tier's targets.
FULL = "full"

def tier_tags(full, tags = []):
    """`tags` plus FULL when `full`.

    Args:
      full: whether the target belongs to the full tier only.
      tags: the target's other tags.

    Returns:
      The tag list.
    """
    return tags + [FULL] if full else tags

def stratified(entries, key_indices, per_stratum = 1):
    """The first `per_stratum` entries of each stratum stay everyday.

    Args:
      entries: tuples, in a stable order.
      key_indices: the positions in each tuple that make its stratum (e.g.
        NPU and quantization mode).
      per_stratum: everyday entries per stratum.

    Returns:
      A list of (entry, full) pairs in the order of `entries`.
    """
    seen = {}
    out = []
    for entry in entries:
        key = tuple([entry[i] for i in key_indices])
        count = seen.get(key, 0)
        seen[key] = count + 1
        out.append((entry, count >= per_stratum))
    return out

def one_of_each(entries, case_index, keep = [], period = 1):
    """Each case (or each `period`-th) once everyday, the variant rotating.

    A generated suite often runs one case in several variants (NPUs,
    quantization modes): `entries` are tuples whose `case_index`-th item
    names the case. The everyday tier keeps one variant of each case: the
    first for the first case, the second for the next case that has two,
    and so on, so every variant keeps about its share of the cases. Entries
    whose case name or whole tuple is in `keep` (ones other tests depend
    on) stay everyday too. With `period` N, only every N-th case keeps a
    variant everyday (the large suites: the everyday tier's cold time).

    Args:
      entries: tuples, in a stable order.
      case_index: the position of the case name in each tuple.
      keep: tuples or case names that stay everyday.
      period: every `period`-th case keeps one variant everyday.

    Returns:
      A list of (entry, full) pairs in the order of `entries`.
    """
    variants = {}
    for entry in entries:
        variants.setdefault(entry[case_index], []).append(entry)
    everyday = {}
    for position, case in enumerate(variants):
        if position % period:
            continue
        rotation = position // period
        chosen = variants[case][rotation % len(variants[case])]
        everyday[chosen] = True
    return [
        (entry, not (entry in everyday or entry in keep or entry[case_index] in keep))
        for entry in entries
    ]
