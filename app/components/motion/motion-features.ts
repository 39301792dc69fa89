// Loaded lazily by <MotionProvider>: the animation engine stays out of the first-load bundle.
import { domAnimation } from 'framer-motion'

export default domAnimation
