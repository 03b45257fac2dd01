"""The compiled part of dcglab: the TREC tokenizer (the rest is in pyproject.toml)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "dcglab.evaluation.batch._trec",
            ["src/dcglab/evaluation/batch/_trec.c"],
            extra_compile_args=["-O2", "-std=c11", "-D_GNU_SOURCE"],
        )
    ]
)
