"""The formulas, pure NumPy, each in one function: gains, discounts, the ideal ranking,
the measures (CG, DCG, IDCG, nDCG) and their kernels, the user-model measures, reversal
studies and the learning-to-rank swap deltas. Nothing here reads files or imports
another layer of dcglab.
"""
