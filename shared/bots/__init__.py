"""Computer players, whatever the rule set: the in-process tournaments that pit them against each other.

Each rule set keeps its own strategies (shared/rulesets/NAME/); this package only runs them.
"""
