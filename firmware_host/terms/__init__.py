"""The board's shared terms: words several rooms use, said once below all of them."""
