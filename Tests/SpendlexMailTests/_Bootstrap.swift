// bootstrap placeholder, removed when the target gets sources
