"""The solver: exact search, solvable deals, honest hints and winnability sweeps."""
