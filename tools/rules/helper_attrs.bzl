"""helper_attrs: what a macro's helper targets share with the target it makes."""

def helper_attrs(kwargs):
    """The `tags` and `testonly` of a macro's **kwargs, for its helper targets.

    A `manual` target's helpers are manual too, so `//...` leaves them (and
    what they depend on) alone; a testonly target's helpers may depend on
    testonly targets.

    Args:
      kwargs: the macro's keyword arguments.

    Returns:
      A dict to pass as **attrs to each helper rule.
    """
    return {key: kwargs[key] for key in ("tags", "testonly") if key in kwargs}
