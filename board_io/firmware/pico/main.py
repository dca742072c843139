# draughtsboard reference firmware for the Raspberry Pi Pico (RP2040), MicroPython.
# Runs at power-up. Hold the SAFE_BUTTON of settings.py while plugging in to skip it.

import db_hw
import settings
from db_firmware import Firmware

parts = db_hw.build(settings)
if db_hw.safe_mode(parts, settings):
    print("draughtsboard firmware: safe button held, not starting")
else:
    parts["io"] = db_hw.UsbSerial()
    Firmware(**parts).run()
