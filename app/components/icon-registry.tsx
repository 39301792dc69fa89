import {
  Activity,
  Blocks,
  Boxes,
  BrainCircuit,
  Cloud,
  Cog,
  Compass,
  Container,
  Factory,
  FileCode,
  FileText,
  Gauge,
  Globe,
  Hammer,
  HeartPulse,
  Lightbulb,
  type LucideIcon,
  type LucideProps,
  Mail,
  MapPin,
  Mic,
  MousePointerClick,
  Network,
  PencilRuler,
  Phone,
  Puzzle,
  Search,
  Server,
  ShieldCheck,
  ShoppingCart,
  Sparkles,
  TrendingUp,
  UserRound,
  Workflow,
  Zap,
} from 'lucide-react'
import type { IconName } from '~/content/types'

/**
 * The icon registry: every name content may use (IconName), and the lucide icon it stands for.
 * Only Icon.tsx imports it, and lazily: its icons come in one chunk after the page's first load.
 */
const ICONS: Record<IconName, LucideIcon> = {
  activity: Activity,
  blocks: Blocks,
  boxes: Boxes,
  'brain-circuit': BrainCircuit,
  cloud: Cloud,
  cog: Cog,
  compass: Compass,
  container: Container,
  factory: Factory,
  'file-code': FileCode,
  'file-text': FileText,
  gauge: Gauge,
  globe: Globe,
  hammer: Hammer,
  'heart-pulse': HeartPulse,
  lightbulb: Lightbulb,
  mail: Mail,
  'map-pin': MapPin,
  mic: Mic,
  'mouse-pointer-click': MousePointerClick,
  network: Network,
  'pencil-ruler': PencilRuler,
  phone: Phone,
  puzzle: Puzzle,
  search: Search,
  server: Server,
  'shield-check': ShieldCheck,
  'shopping-cart': ShoppingCart,
  sparkles: Sparkles,
  'trending-up': TrendingUp,
  'user-round': UserRound,
  workflow: Workflow,
  zap: Zap,
}

export type IconProps = { name: IconName } & LucideProps

/** The lucide icon a name stands for. */
export function RegisteredIcon({ name, ...props }: IconProps) {
  const Component = ICONS[name]
  return <Component {...props} />
}
