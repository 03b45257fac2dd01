"""Evaluation of many queries at once: the tables of conventions (:mod:`.options`), presets,
measure names and families; :mod:`.batch` (files to per-query values to trec_eval's
output) and :mod:`.engines` (the same evaluation as SQL on DuckDB and Spark). Imports
only :mod:`dcglab.formulas` below it.
"""
