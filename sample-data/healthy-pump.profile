# A healthy centrifugal pump, two accelerometers (m/s²) on the bearing housing.
# Format: see `sonde stream --help` (KEY = VALUE lines, one [channel NAME] section per channel).
name = healthy-pump
rate = 25600

[channel accel_x]
tone = 49.5 0.8 0.12 0.04      # running speed 2970 rpm and its first harmonics
tone = 346.5 0.15              # vane pass (7 vanes)
noise = 0.03
offset = 0
drift = 0.01 60

[channel accel_y]
tone = 49.5 0.6 0.1 0.03
tone = 346.5 0.1
noise = 0.03
offset = 9.81                  # this axis points up: gravity
drift = 0.005 90
