"""The report: the payload of plain data, the run-against-run model, and the page (render + assets/)."""
