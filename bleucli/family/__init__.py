"""BLEU beyond translation: Self-BLEU, iBLEU, GLEU for error correction, Google-BLEU, pairwise matrices.

Each module names the script or paper whose numbers it reproduces.
"""
