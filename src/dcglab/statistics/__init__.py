"""Comparing systems: paired tests and intervals (:mod:`.significance`), studies
(:mod:`.studies`), the comparison table (:mod:`.comparison`) and its text forms
(:mod:`.report_formats`).
"""
