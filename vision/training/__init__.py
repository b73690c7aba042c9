"""Development only, not in the wheel: training the dice and card models, and the measures that make
their data (rendered dice and tables, conditions, clusters, the reader's speed). The commands are in
``assets/dice_model/README.md`` and ``assets/cards/README.md``; some need torch."""
