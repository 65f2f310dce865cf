# The same pump with a worn outer bearing race and misalignment:
# strong 2x running speed, bearing-fault impacts, more broadband noise.
name = faulty-pump
rate = 25600

[channel accel_x]
tone = 49.5 0.9 0.7 0.25 0.1   # large 2x and 3x: misalignment
tone = 346.5 0.2
noise = 0.08
impulses = 178 3.5             # outer-race defect frequency, sharp impacts
drift = 0.02 45

[channel accel_y]
tone = 49.5 0.7 0.5 0.2
tone = 346.5 0.15
noise = 0.08
offset = 9.81
impulses = 178 2.0
drift = 0.01 70
